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
#[test]
fn query_names_a_misspelt_query() {
    assert_eq!(
        query(&["scenarios/diplomacy", "chek_order"]),
        (
            Some(2),
            String::new(),
            "error: no query 'chek_order' in these rules: did you mean 'check_order'? (queries: \
             adjustments, bot, check_order, orders, score, status)\n"
                .to_string()
        )
    );
    assert_eq!(
        query(&["scenarios/demo", "atack"]).2,
        "error: no query 'atack' in these rules (queries: bot, reach)\n"
    );
}
