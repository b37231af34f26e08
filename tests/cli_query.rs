//! `hexwar query`: any query the rules declare, asked from the command line with a JSON
//! argument (France 1940's `combat_odds` was reachable only from Lua tests and Rust).

mod common;

use common::{hexwar, stderr, stdout};

/// `hexwar query ARGS...`: exit code, stdout, stderr.
fn query(args: &[&str]) -> (Option<i32>, String, String) {
    let mut all = vec!["query"];
    all.extend_from_slice(args);
    let out = hexwar(&all);
    (out.status.code(), stdout(&out), stderr(&out))
}

#[test]
fn query_asks_diplomacy_whether_an_order_would_be_void() {
    let (code, out, err) = query(&[
        "scenarios/diplomacy",
        "check_order",
        r#"{"power": "FRANCE", "order": "A PAR - MUN"}"#,
        "--json",
    ]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        out,
        "{\"order\":\"A PAR - MUN\",\"reason\":\"A PAR cannot reach MUN (not adjacent for an \
         army, and no convoy could carry it there)\",\"unit\":\"A PAR\",\"void\":true}\n"
    );
}

/// France 1940's combat odds on a setup position: g1 (6, isolated in France, halved: F40-8.3)
/// against f1 (3) is 1:1; a unit not in play is the asker's mistake, exit 2.
#[test]
fn query_asks_france_1940_the_odds_of_an_attack() {
    let dir = tempfile::tempdir().unwrap();
    let setup = dir.path().join("combat.toml");
    std::fs::write(
        &setup,
        "turn = 2\nphase = \"combat\"\nside = \"german\"\n\
         [[unit]]\nid = \"g1\"\nside = \"german\"\nnation = \"german\"\ntype = \"infantry\"\n\
         size = \"XX\"\nma = 4\nstrength = 6\nat = \"1020\"\n\
         [[unit]]\nid = \"f1\"\nside = \"allied\"\nnation = \"french\"\ntype = \"infantry\"\n\
         size = \"XX\"\nma = 4\nstrength = 3\nat = \"1021\"\n",
    )
    .unwrap();
    let setup = setup.to_str().unwrap();
    let ask = |units: &str| {
        query(&[
            "scenarios/france1940",
            "combat_odds",
            &format!(r#"{{"hex": "1021", "units": ["{units}"]}}"#),
            "--setup",
            setup,
            "--json",
        ])
    };
    let (code, out, err) = ask("g1");
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(out, "{\"attack\":3.0,\"defense\":3,\"odds\":\"1:1\"}\n");
    assert_eq!(
        ask("g9"),
        (
            Some(2),
            String::new(),
            "error: query 'combat_odds': no unit 'g9' in play\n".to_string()
        )
    );
}

/// Text that is no JSON is the argument as a string (a unit id); without --json the answer is
/// indented JSON.
#[test]
fn query_takes_a_plain_word_as_a_string() {
    let (code, out, err) = query(&["scenarios/demo", "reach", "b-inf-1"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.starts_with("{\n  \"0101\": 1.0,\n  \"0103\": 1.0,\n"),
        "{out}"
    );
    assert_eq!(out.lines().count(), 19, "{out}");
}

/// A name the rules do not declare is refused with the nearest one and the list.
/// No argument is nil to the rules (it read as mlua's `userdata` null).
#[test]
fn query_without_an_argument_gives_the_rules_nil() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("f.json");
    let out = hexwar(&[
        "run",
        "scenarios/france1940",
        "--turns",
        "1",
        "--quiet",
        "--save",
        save.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let (code, _, err) = query(&[save.to_str().unwrap(), "attack_options"]);
    assert_eq!(code, Some(2));
    assert_eq!(
        err,
        "error: query 'attack_options': the argument is a side, \"german\" or \"allied\", not nil\n"
    );
}

#[test]
fn query_names_a_misspelt_query() {
    assert_eq!(
        query(&["scenarios/diplomacy", "chek_order"]),
        (
            Some(2),
            String::new(),
            "error: no query 'chek_order' in these rules: did you mean 'check_order'? (queries: \
             adjustments, bot, check_order, orders, position_problems, score, status)\n"
                .to_string()
        )
    );
    assert_eq!(
        query(&["scenarios/demo", "atack"]).2,
        "error: no query 'atack' in these rules (queries: bot, reach)\n"
    );
}

/// The host's `bot` query checks its question: a missing or misspelt bot module, side or key,
/// or a seed that is no whole number, is the asker's mistake (exit 2, the shape and the names
/// loaded), not the bot's script failing on a side `''` or a string seed.
#[test]
fn query_bot_says_what_its_question_lacks() {
    let shape = "error: query 'bot': the argument is {\"bot\": MODULE, \"side\": SIDE, \"seed\": N} (bot modules loaded: demo.ai)";
    let cases = [
        ("null", shape.to_string()),
        (r#"{"bot": "demo.ai"}"#, shape.to_string()),
        (
            r#"{"bot": "demo.ai", "side": "blue", "sed": 1}"#,
            format!("{shape}: unknown key 'sed'"),
        ),
        (
            r#"{"bot": "demo.a", "side": "blue"}"#,
            "error: query 'bot': unknown bot module 'demo.a': did you mean 'demo.ai'? (loaded: demo.ai)".into(),
        ),
        (
            r#"{"bot": "demo.ai", "side": "blu"}"#,
            "error: query 'bot': unknown side 'blu': did you mean 'blue'? (sides: blue, red)".into(),
        ),
        (
            r#"{"bot": "demo.ai", "side": "blue", "seed": "abc"}"#,
            "error: query 'bot': seed \"abc\" is not a whole number from 0 to 18446744073709551615".into(),
        ),
        // (red's bot chose a move red may not give in blue's phase)
        (
            r#"{"bot": "demo.ai", "side": "red"}"#,
            "error: query 'bot': it is blue's phase, not red's: red has no command to give now"
                .into(),
        ),
    ];
    for (arg, expected) in cases {
        let (code, out, err) = query(&["scenarios/demo", "bot", arg, "--json"]);
        assert_eq!(code, Some(2), "{arg}: {out}");
        assert_eq!(err.trim_end(), expected, "{arg}");
    }
    let (code, out, err) = query(&[
        "scenarios/demo",
        "bot",
        r#"{"bot": "demo.ai", "side": "blue", "seed": 7}"#,
        "--json",
    ]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        out,
        "{\"command\":\"move\",\"path\":[\"0203\",\"0303\",\"0404\",\"0503\",\"0604\",\"0703\"],\"unit\":\"b-arm-1\"}\n"
    );
}

/// A `bot` question without a seed asks with seed 0: the facing games' bots, which break ties
/// with it, failed on the null they were given (`facing_ai.lua:108: attempt to perform
/// arithmetic on a userdata value`).
#[test]
fn query_bot_without_a_seed_asks_with_seed_0() {
    for (scenario, bot, side) in [
        ("scenarios/tactical", "tactical.ai", "british"),
        ("scenarios/ancients", "ancients.ai", "macedon"),
    ] {
        let ask = |seed: &str| {
            query(&[
                scenario,
                "bot",
                &format!(r#"{{"bot": "{bot}", "side": "{side}"{seed}}}"#),
                "--json",
            ])
        };
        let (code, out, err) = ask("");
        assert_eq!(code, Some(0), "{scenario}: {err}");
        assert_eq!(ask(r#", "seed": 0"#).1, out, "{scenario}");
    }
}
