//! The host calls the Diplomacy glue uses to read little: `hex.state.get(key, path...)`,
//! `hex.units.list(field)`, `hex.units.with_status(flag)` (src/rules/api/state.rs, units.rs).

use std::path::Path;

use hexwar::rules::LuaRules;
use hexwar::scenario::load_scenario;
use hexwar::Session;
use serde_json::json;

/// The `orders` command of `power` giving `list`.
fn orders(power: &str, list: serde_json::Value) -> hexwar::engine::Command {
    hexwar::engine::Command::Custom {
        name: "orders".into(),
        args: json!({"power": power, "orders": list})
            .as_object()
            .unwrap()
            .clone(),
    }
}

/// The answer of a query that takes no argument.
fn ask(session: &mut Session, query: &str) -> serde_json::Value {
    session
        .game
        .query(query, &serde_json::Value::Null)
        .unwrap()
        .unwrap()
}

fn opening() -> (LuaRules, hexwar::engine::GameState) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/diplomacy");
    let session = Session::start(&path, None).unwrap();
    let rules = LuaRules::load(&load_scenario(&path).unwrap()).unwrap();
    (rules, session.game.state().clone())
}

#[test]
fn state_get_with_a_path_reads_only_that_part() {
    let (mut rules, state) = opening();
    let got = rules
        .eval(
            &state,
            r#"return {
                phase = hex.state.get("position", "phase"),
                first = hex.state.get("position", "units", "FRANCE", 1),
                third = hex.state.get("position", "units", "FRANCE", 3),
                past_end = hex.state.get("position", "units", "FRANCE", 4) == nil,
                zero = hex.state.get("position", "units", "FRANCE", 0) == nil,
                not_an_object = hex.state.get("position", "phase", "x") == nil,
                no_key = hex.state.get("position", "nothing") == nil,
                no_var = hex.state.get("nothing", "phase") == nil,
                whole = hex.state.get("position", "centers", "ITALY"),
            }"#,
        )
        .unwrap();
    assert_eq!(
        got,
        json!({"phase": "S1901M", "first": "A MAR", "third": "F BRE", "past_end": true,
               "zero": true, "not_an_object": true, "no_key": true, "no_var": true,
               "whole": ["NAP", "ROM", "VEN"]})
    );
}

#[test]
fn units_list_gives_one_field_of_every_unit_in_id_order() {
    let (mut rules, state) = opening();
    let ids: Vec<String> = state.units.keys().cloned().collect();
    let got = rules
        .eval(
            &state,
            r#"local ids, at, types = hex.units.list("id"), hex.units.list("at"), hex.units.list("type")
               local all = hex.units.all()
               for i, u in ipairs(all) do
                 assert(ids[i] == u.id and at[i] == u.at and types[i] == u.type)
               end
               assert(#ids == #all)
               return ids"#,
        )
        .unwrap();
    assert_eq!(got, json!(ids));
    assert_eq!(ids.len(), 22);
    let err = rules
        .eval(&state, r#"return hex.units.list("facing")"#)
        .unwrap_err();
    assert!(
        err.message.contains(
            "hex.units.list: no field 'facing' (id, side, nation, type, size, at, strength)"
        ),
        "{}",
        err.message
    );
}

#[test]
fn units_with_status_is_the_set_of_ids_with_that_flag() {
    let (mut rules, state) = opening();
    let mut marked = state.clone();
    let id = marked.units.keys().nth(3).unwrap().clone();
    marked
        .units
        .get_mut(&id)
        .unwrap()
        .status
        .insert("dislodged".into());
    let got = rules
        .eval(&marked, r#"return hex.units.with_status("dislodged")"#)
        .unwrap();
    assert_eq!(got, json!({ id: true }));
    let none = rules
        .eval(
            &state,
            r#"return next(hex.units.with_status("dislodged")) == nil"#,
        )
        .unwrap();
    assert_eq!(none, json!(true));
}

#[test]
fn state_matches_is_true_exactly_for_the_plain_data_the_variable_holds() {
    let (mut rules, state) = opening();
    let code = r#"
        local pos = hex.state.get("position")
        local copy = { phase = pos.phase, units = pos.units, centers = pos.centers }
        local moved = { phase = pos.phase, units = {}, centers = pos.centers }
        for p, l in pairs(pos.units) do moved.units[p] = l end
        moved.units.FRANCE = { "A BUR", "A MAR", "F BRE" }
        return {
          read = hex.state.matches("position", pos),
          copy = hex.state.matches("position", copy),
          moved = hex.state.matches("position", moved),
          more = hex.state.matches("position", { phase = pos.phase, units = pos.units, centers = pos.centers, winner = "FRANCE" }),
          less = hex.state.matches("position", { phase = pos.phase, units = pos.units }),
          no_var = hex.state.matches("nothing", {}),
        }"#;
    assert_eq!(
        rules.eval(&state, code).unwrap(),
        json!({"read": true, "copy": true, "moved": false, "more": false, "less": false,
               "no_var": false})
    );
}

/// `hex.state.list` marks a table as a list, so that an empty one reads as `[]`; marking twice
/// is fine, a table with a metatable of its own is refused.
#[test]
fn state_list_makes_an_empty_table_read_as_an_empty_array() {
    let (mut rules, state) = opening();
    let code = r#"
        local ok, err = pcall(hex.state.list, setmetatable({}, {}))
        return { marked = hex.state.list(), twice = hex.state.list(hex.state.list({})),
                 bare = {}, items = hex.state.list({ "x" }), refused = not ok and tostring(err) or "" }"#;
    let got = rules.eval(&state, code).unwrap();
    // (a host function's error caught by pcall is its message as text)
    assert_eq!(
        got["refused"], "hex.state.list: the table has a metatable of its own",
        "{got}"
    );
    assert_eq!(
        got,
        json!({"marked": [], "twice": [], "bare": {}, "items": ["x"], "refused": got["refused"]})
    );
}

/// The glue keeps the position and orders tables it last read or wrote (host.lua `read_var`);
/// a VM that adjudicates other states in between must answer as a fresh VM does.
#[test]
fn the_glue_reads_the_state_afresh_whenever_it_is_not_what_it_kept() {
    use hexwar::engine::{Command, Ruleset};
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/diplomacy");
    let mut session = Session::start(&path, None).unwrap();
    let order = |s: &mut Session, power: &str, orders: serde_json::Value| {
        let mut args = serde_json::Map::new();
        args.insert("power".into(), power.into());
        args.insert("orders".into(), orders);
        let cmd = Command::Custom {
            name: "orders".into(),
            args,
        };
        s.game.submit(Some(power), &cmd).unwrap();
    };
    order(
        &mut session,
        "FRANCE",
        json!(["A PAR - BUR", "A MAR - BUR"]),
    );
    let bounce = session.game.state().clone();
    order(&mut session, "FRANCE", json!(["A PAR - BUR"]));
    let moves = session.game.state().clone();
    session.game.submit(None, &Command::EndPhase).unwrap();
    order(&mut session, "FRANCE", json!(["A BUR - MUN"]));
    let fall = session.game.state().clone();
    let scenario = load_scenario(&path).unwrap();
    let mut kept = LuaRules::load(&scenario).unwrap();
    for state in [&bounce, &moves, &bounce, &fall, &moves, &fall, &fall] {
        let mut fresh = LuaRules::load(&scenario).unwrap();
        assert_eq!(
            kept.resolve(state, None, &Command::EndPhase).unwrap(),
            fresh.resolve(state, None, &Command::EndPhase).unwrap()
        );
    }
}

/// The `orders` command takes a list of order strings and nothing else (an empty list clears
/// the power's orders); anything else is refused, naming the first bad item, and changes nothing.
#[test]
fn orders_that_are_not_a_list_of_strings_are_refused() {
    use hexwar::engine::{Command, GameError};
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/diplomacy");
    let mut session = Session::start(&path, None).unwrap();
    let orders = |orders: serde_json::Value| {
        let mut args = serde_json::Map::new();
        args.insert("power".into(), "FRANCE".into());
        args.insert("orders".into(), orders);
        Command::Custom {
            name: "orders".into(),
            args,
        }
    };
    let before = session.game.state().clone();
    for (given, why) in [
        (json!("A PAR H"), "'orders' must be a list of order strings"),
        (
            json!({"a": "A PAR H"}),
            "'orders' must be a list of order strings",
        ),
        (json!(["A PAR H", 5]), "order #2 is not a string"),
        (
            json!(["A PAR H", null, "A MAR H"]),
            "order #2 is not a string",
        ),
    ] {
        match session.game.submit(Some("FRANCE"), &orders(given.clone())) {
            Err(GameError::Refused(r)) => {
                assert_eq!(
                    (r.rule.as_str(), r.reason.as_str()),
                    ("DIP-orders", why),
                    "{given}"
                )
            }
            other => panic!("{given}: {other:?}"),
        }
        assert!(session.game.state() == &before, "{given}");
    }
    for (given, stored) in [
        (
            json!(["A PAR - BUR", "A MAR H"]),
            json!(["A PAR - BUR", "A MAR H"]),
        ),
        (json!([]), json!([])),
    ] {
        session
            .game
            .submit(Some("FRANCE"), &orders(given.clone()))
            .unwrap();
        assert_eq!(
            session
                .game
                .state()
                .vars
                .get("orders.FRANCE")
                .map(|v| (**v).clone()),
            Some(stored),
            "{given}"
        );
    }
}

/// What a multiplayer host needs refused when the orders are given, not found at adjudication:
/// order text far too long and far too many orders (either stopped the phase for every power),
/// an argument the command does not take, and orders written for another phase (DIP-orders).
#[test]
fn orders_too_long_too_many_for_another_phase_or_with_unknown_arguments_are_refused() {
    use hexwar::engine::{Command, GameError};
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/diplomacy");
    let mut session = Session::start(&path, None).unwrap();
    let command = |name: &str, args: serde_json::Value| Command::Custom {
        name: name.into(),
        args: args.as_object().unwrap().clone(),
    };
    let long = format!("A PAR - BUR {}", "X".repeat(94));
    let many: Vec<String> = (0..257).map(|_| "A PAR H".to_string()).collect();
    let before = session.game.state().clone();
    for (cmd, why) in [
        (
            command(
                "orders",
                json!({"power": "FRANCE", "orders": ["A MAR H", long]}),
            ),
            "order #2 is 106 characters long (an order is at most 100)".to_string(),
        ),
        (
            command("order", json!({"power": "FRANCE", "order": long})),
            "the order is 106 characters long (an order is at most 100)".to_string(),
        ),
        (
            command("orders", json!({"power": "FRANCE", "orders": many})),
            "257 orders for FRANCE (at most 256 a phase)".to_string(),
        ),
        (
            command(
                "orders",
                json!({"power": "FRANCE", "orders": ["A PAR H"], "bogus": 1}),
            ),
            "orders: unknown argument 'bogus' (it takes power, orders, phase)".to_string(),
        ),
        (
            command(
                "order",
                json!({"power": "FRANCE", "order": "A PAR H", "phse": "S1901M"}),
            ),
            "order: unknown argument 'phse' (it takes power, order, phase)".to_string(),
        ),
        (
            command(
                "order",
                json!({"power": "FRANCE", "order": "A PAR H", "phase": "F1905M"}),
            ),
            "these orders are for F1905M, and the game is at S1901M".to_string(),
        ),
    ] {
        match session.game.submit(Some("FRANCE"), &cmd) {
            Err(GameError::Refused(r)) => {
                // (an unknown argument is the host's refusal, from the commands' `args`)
                let rule = if why.contains("unknown argument") {
                    "command"
                } else {
                    "DIP-orders"
                };
                assert_eq!((r.rule.as_str(), r.reason.as_str()), (rule, why.as_str()))
            }
            other => panic!("{why}: {other:?}"),
        }
        assert!(session.game.state() == &before, "{why}");
    }
    // the longest order allowed, orders for the phase the game is at, and an order over the
    // length only by the spaces around it (a mail's padding) are taken, the last one trimmed
    let longest = format!("A PAR - BUR{}", " ".repeat(89));
    session
        .game
        .submit(
            Some("FRANCE"),
            &command(
                "orders",
                json!({"power": "FRANCE", "orders": [longest], "phase": "S1901M"}),
            ),
        )
        .unwrap();
    let padded = format!("  A MAR - GAS{}", " ".repeat(100));
    session
        .game
        .submit(
            Some("FRANCE"),
            &command("order", json!({"power": "FRANCE", "order": padded})),
        )
        .unwrap();
    assert_eq!(
        ask(&mut session, "orders")["FRANCE"],
        json!([longest, "A MAR - GAS"]),
        "the padded order is kept trimmed"
    );
    let events = session.game.submit(None, &Command::EndPhase).unwrap();
    let report = hexwar::report::PhaseReport::from_events(&events).unwrap();
    for (unit, order) in [("A PAR", "A PAR - BUR"), ("A MAR", "A MAR - GAS")] {
        let result = report[0].results.iter().find(|r| r.unit == unit).unwrap();
        assert_eq!(result.order.trim(), order);
        assert!(result.flags.is_empty(), "{unit}: {:?}", result.flags);
    }
    // one `order` at a time stops at the same count
    let mut session = Session::start(&path, None).unwrap();
    for _ in 0..256 {
        session
            .game
            .submit(
                Some("FRANCE"),
                &command("order", json!({"power": "FRANCE", "order": "A PAR H"})),
            )
            .unwrap();
    }
    match session.game.submit(
        Some("FRANCE"),
        &command("order", json!({"power": "FRANCE", "order": "A PAR H"})),
    ) {
        Err(GameError::Refused(r)) => assert_eq!(
            r.reason,
            "FRANCE has given 256 orders already (at most 256 a phase)"
        ),
        other => panic!("{other:?}"),
    }
}

/// The queries a multiplayer host asks: the orders given so far (`orders`) and what each power
/// builds or disbands (`adjustments`).
#[test]
fn the_orders_and_adjustments_queries_answer_a_host() {
    use hexwar::engine::Command;
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/diplomacy");
    let mut session = Session::start(&path, None).unwrap();
    assert_eq!(
        ask(&mut session, "orders"),
        json!({"AUSTRIA": [], "ENGLAND": [], "FRANCE": [], "GERMANY": [], "ITALY": [],
               "RUSSIA": [], "TURKEY": []})
    );
    let given = [
        (
            "FRANCE",
            json!(["A PAR - BUR", "A MAR - SPA", "F BRE - MAO"]),
        ),
        ("GERMANY", json!(["A MUN - RUH"])),
    ];
    for (power, list) in &given {
        session
            .game
            .submit(Some(power), &orders(power, list.clone()))
            .unwrap();
    }
    let now = ask(&mut session, "orders");
    assert_eq!(now["FRANCE"], given[0].1);
    assert_eq!(now["GERMANY"], given[1].1);
    assert_eq!(now["ITALY"], json!([]));

    let adjustments = ask(&mut session, "adjustments");
    assert_eq!(
        adjustments["FRANCE"],
        json!({"centers": 3, "units": 3, "change": 0, "build_sites": []})
    );
    // France takes Spain and Portugal in 1901; the winter asks it to build two, at home,
    // where no unit stands.
    session.game.submit(None, &Command::EndPhase).unwrap();
    assert_eq!(ask(&mut session, "orders")["FRANCE"], json!([]));
    session
        .game
        .submit(
            Some("FRANCE"),
            &orders("FRANCE", json!(["A SPA H", "F MAO - POR"])),
        )
        .unwrap();
    session.game.submit(None, &Command::EndPhase).unwrap();
    assert_eq!(
        session.game.phase_label().unwrap().as_deref(),
        Some("W1901A")
    );
    let adjustments = ask(&mut session, "adjustments");
    assert_eq!(
        adjustments["FRANCE"],
        json!({"centers": 5, "units": 3, "change": 2, "build_sites": ["BRE", "MAR", "PAR"]})
    );
    assert_eq!(
        adjustments["GERMANY"],
        json!({"centers": 3, "units": 3, "change": 0, "build_sites": []})
    );
}

/// `check_order` answers a player when the order is given: void or not (the adjudicator's own
/// verdict on the order given alone; a support to move judged as an order, as the adjudicator
/// judges it before the other orders count) and, when void, why. The bots' menu is all valid.
#[test]
fn check_order_says_whether_an_order_is_void_and_why() {
    use hexwar::engine::Command;
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/diplomacy");
    let mut session = Session::start(&path, None).unwrap();
    let check = |session: &mut Session, power: &str, order: &str| {
        session
            .game
            .query("check_order", &json!({"power": power, "order": order}))
            .unwrap()
            .unwrap()
    };
    let reason = |answer: &serde_json::Value| answer["reason"].as_str().map(str::to_string);
    let cases: &[(&str, &str, Option<&str>)] = &[
        ("FRANCE", "A PAR - BUR", None),
        ("FRANCE", "A MAR S A VEN - PIE", None),
        ("FRANCE", "A PAR - MOS", Some("A PAR cannot reach MOS (not adjacent for an army, and no convoy could carry it there)")),
        ("FRANCE", "hello world", Some("not an order in the standard notation (unit, location, order: A XXX - YYY, F XXX S A YYY H, A XXX B, ...)")),
        ("FRANCE", "A PAR - BRU", Some("'BRU' is no province or coast of the map (did you mean BRE?)")),
        ("FRANCE", "F BRE - SPA/EC", Some("'SPA/EC': SPA's coasts are NC, SC")),
        ("FRANCE", "F BRE - PIC/NC", Some("'PIC/NC': PIC has no split coasts")),
        ("FRANCE", "a par-bur", Some("write a move with spaces around its dash (A PAR - BUR)")),
        ("FRANCE", "A RUH - BEL", Some("FRANCE has no army in RUH")),
        ("FRANCE", "F BRE - MAR", Some("F BRE cannot reach MAR (not adjacent for a fleet)")),
        ("ITALY", "A VEN - PIE VIA", Some("no chain of fleets at sea could convoy A VEN to PIE (VIA asks for a convoy)")),
        ("FRANCE", "A MAR S A MAR", Some("a unit cannot support itself")),
        ("FRANCE", "F PAR - BUR", Some("FRANCE has no fleet in PAR")),
        ("ITALY", "A PAR - BUR", Some("ITALY has no army in PAR")),
        ("FRANCE", "A PAR B", Some("this is a movement phase (S1901M), and the order is one of an adjustment phase")),
        ("FRANCE", "F BRE S A MUN - BUR", Some("F BRE cannot reach BUR, where the support is given")),
        ("FRANCE", "A PAR S A RUH H", Some("no army in RUH to support")),
        ("FRANCE", "F BRE C A PAR - LON", Some("only a fleet at sea convoys")),
    ];
    for (power, order, why) in cases {
        let answer = check(&mut session, power, order);
        assert_eq!(answer["void"], why.is_some(), "{power} {order}: {answer}");
        assert_eq!(reason(&answer).as_deref(), *why, "{power} {order}");
        // the verdict is the adjudication's: the order given alone, then the phase ended
        let mut alone = Session::start(&path, None).unwrap();
        alone
            .game
            .submit(Some(power), &orders(power, json!([order])))
            .unwrap();
        // (a support to move is judged as the order it is: the supported unit ordered to
        // match, as a player who gives it means)
        if order.contains(" S ") && order.contains(" - ") {
            let supported = order.split(" S ").nth(1).unwrap();
            let owner = if supported.contains("VEN") {
                "ITALY"
            } else {
                "GERMANY"
            };
            alone
                .game
                .submit(Some(owner), &orders(owner, json!([supported])))
                .unwrap();
        }
        let events = alone.game.submit(None, &Command::EndPhase).unwrap();
        let report = hexwar::report::PhaseReport::from_events(&events).unwrap();
        let result = report[0]
            .results
            .iter()
            .find(|r| r.power == *power && r.order == *order)
            .unwrap();
        assert_eq!(
            result.flags.iter().any(|f| f == "void"),
            why.is_some(),
            "{power} {order}"
        );
    }
    // every order of the bots' menu is valid
    for power in [
        "AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY",
    ] {
        for command in session.game.legal_commands(power).unwrap() {
            if let Command::Custom { name, args } = command {
                if name == "order" {
                    let order = args["order"].as_str().unwrap().to_string();
                    let answer = check(&mut session, power, &order);
                    assert_eq!(answer["void"], false, "{power} {order}: {answer}");
                }
            }
        }
    }
    // the winter: France builds two after taking Spain and Portugal
    session
        .game
        .submit(
            Some("FRANCE"),
            &orders("FRANCE", json!(["A MAR - SPA", "F BRE - MAO"])),
        )
        .unwrap();
    session.game.submit(None, &Command::EndPhase).unwrap();
    session
        .game
        .submit(Some("FRANCE"), &orders("FRANCE", json!(["F MAO - POR"])))
        .unwrap();
    session.game.submit(None, &Command::EndPhase).unwrap();
    assert_eq!(
        session.game.phase_label().unwrap().as_deref(),
        Some("W1901A")
    );
    for (power, order, why) in [
        ("FRANCE", "A MAR B", None),
        ("FRANCE", "F BRE B", None),
        (
            "FRANCE",
            "A MUN B",
            Some("MUN is not a home supply centre of FRANCE"),
        ),
        ("FRANCE", "A PAR B", Some("PAR is occupied")),
        (
            "FRANCE",
            "F PAR B",
            Some("a fleet cannot be built inland, in PAR"),
        ),
        (
            "GERMANY",
            "A BER B",
            Some("GERMANY has no build due (3 centres, 3 units)"),
        ),
        (
            "FRANCE",
            "A SPA - POR",
            Some("this is an adjustment phase (W1901A), and the order is one of a movement phase"),
        ),
    ] {
        let answer = check(&mut session, power, order);
        assert_eq!(answer["void"], why.is_some(), "{power} {order}: {answer}");
        assert_eq!(reason(&answer).as_deref(), why, "{power} {order}");
    }
    let e = session
        .game
        .query(
            "check_order",
            &json!({"power": "NARNIA", "order": "A PAR H"}),
        )
        .unwrap_err();
    // (the asker's mistake, said as such: hex.rules.caller_error, no traceback)
    assert_eq!(e.kind, hexwar::engine::RulesErrorKind::HostCall);
    assert_eq!(
        e.message,
        "query 'check_order': 'NARNIA' is not a power of the map \
         (AUSTRIA, ENGLAND, FRANCE, GERMANY, ITALY, RUSSIA, TURKEY)"
    );
    let e = session
        .game
        .query("check_order", &json!("A PAR H"))
        .unwrap_err();
    assert_eq!(e.kind, hexwar::engine::RulesErrorKind::HostCall);
    assert_eq!(
        e.message,
        "query 'check_order': give { power = \"FRANCE\", order = \"A PAR - BUR\" }"
    );
}

/// `check_order` in a retreat phase: a retreat to a place the unit may go, and why others are void.
#[test]
fn check_order_in_a_retreat_phase_names_the_retreats() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/diplomacy");
    let mut session = Session::start(&path, None).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let setup = dir.path().join("retreat.toml");
    std::fs::write(
        &setup,
        "phase = \"S1901R\"\n[units]\nFRANCE = [\"A MAR\"]\nITALY = [\"A VEN\"]\n\
         [[dislodged]]\npower = \"ITALY\"\nunit = \"A PIE\"\nby = \"MAR\"\nretreats = [\"TUS\"]\n",
    )
    .unwrap();
    session.setup_file(&setup).unwrap();
    let mut check = |power: &str, order: &str| {
        let answer = session
            .game
            .query("check_order", &json!({"power": power, "order": order}))
            .unwrap()
            .unwrap();
        (
            answer["void"].as_bool().unwrap(),
            answer["reason"].as_str().map(str::to_string),
        )
    };
    assert_eq!(check("ITALY", "A PIE R TUS"), (false, None));
    assert_eq!(check("ITALY", "A PIE - TUS"), (false, None));
    assert_eq!(check("ITALY", "A PIE D"), (false, None));
    assert_eq!(
        check("ITALY", "A PIE R TYR"),
        (true, Some("TYR is not among A PIE's retreats (TUS)".into()))
    );
    assert_eq!(
        check("ITALY", "A VEN R TUS"),
        (true, Some("ITALY has no dislodged army in VEN".into()))
    );
    assert_eq!(
        check("FRANCE", "A MAR H"),
        (
            true,
            Some(
                "this is a retreat phase (S1901R), and the order is one of a movement phase".into()
            )
        )
    );
}

/// A move ordered to a region by its alias (`A MOS - LIV`, Livonia) keeps the unit's id in the
/// engine's unit list, as a move named by the id does: the mirror read the destination as the
/// order's first three letters ("LIV", no region) and took the army for a unit gone and a new
/// one placed.
#[test]
fn a_move_named_by_an_alias_keeps_the_units_id() {
    use hexwar::engine::Command;
    let mut session = Session::start(Path::new("scenarios/diplomacy"), Some(1)).unwrap();
    let id_at = |session: &Session, at: &str| -> Option<String> {
        session
            .game
            .state()
            .units
            .values()
            .find(|u| u.at.as_deref() == Some(at))
            .map(|u| u.id.clone())
    };
    let army = id_at(&session, "MOS").expect("a Russian army in Moscow");
    session
        .game
        .submit(Some("RUSSIA"), &orders("RUSSIA", json!(["A MOS - LIV"])))
        .unwrap();
    session.game.submit(None, &Command::EndPhase).unwrap();
    assert_eq!(id_at(&session, "LVN"), Some(army));
    assert_eq!(id_at(&session, "MOS"), None);
}
