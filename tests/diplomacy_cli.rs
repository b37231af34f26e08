//! The 57 DATC cases through `hexwar play SCENARIO --setup FILE --orders FILE --json` (the
//! pinned CLI contract), one test per section file, and the project's own cases for the other
//! sections the same way; plus the exit codes and the text form.

mod common;

use std::path::Path;

use common::datc::{datc_dir, phases, run_file, setup_of, Played};
use common::{hexwar, play_diplomacy_texts, stderr, stdout, write_file, DIPLOMACY_SETUP};
use hexwar::report::PhaseReport;
use serde_json::{json, Value};

/// Writes the case as a setup file and an orders file, runs `hexwar play --json`, and reads
/// the printed array back.
fn play_cli(case: &Value) -> Result<Vec<Played>, String> {
    play_cli_on("scenarios/diplomacy", case)
}

/// `play_cli` on another scenario (the Francqueville variant's).
fn play_cli_on(scenario: &str, case: &Value) -> Result<Vec<Played>, String> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let setup = dir.path().join("setup.toml");
    let orders = dir.path().join("orders.toml");
    let setup_text = toml::to_string(&Value::Object(setup_of(case))).map_err(|e| e.to_string())?;
    std::fs::write(&setup, setup_text).map_err(|e| e.to_string())?;
    let entries: Vec<Value> = phases(case, "expected")
        .into_iter()
        .map(|(phase, orders, _)| json!({"phase": phase, "orders": orders}))
        .collect();
    let orders_text = toml::to_string(&json!({ "phase": entries })).map_err(|e| e.to_string())?;
    std::fs::write(&orders, orders_text).map_err(|e| e.to_string())?;
    let out = hexwar(&[
        "play",
        scenario,
        "--setup",
        setup.to_str().unwrap_or_default(),
        "--orders",
        orders.to_str().unwrap_or_default(),
        "--json",
    ]);
    if out.status.code() != Some(0) {
        return Err(format!("exit {:?}: {}", out.status.code(), stderr(&out)));
    }
    let printed: Vec<Value> = serde_json::from_str(&stdout(&out)).map_err(|e| e.to_string())?;
    printed
        .into_iter()
        .map(|v| {
            if v["skipped"] == Value::Bool(true) {
                return Ok(Played::Skipped);
            }
            let report: PhaseReport = serde_json::from_value(v).map_err(|e| e.to_string())?;
            let waiting = if report.next_phase.ends_with('R') {
                report.dislodged.iter().map(|d| d.unit.clone()).collect()
            } else {
                Vec::new()
            };
            Ok(Played::Report { report, waiting })
        })
        .collect()
}

/// Plays every case of `file` that has `field` with `play` and asserts that each passes and
/// that there are at least `min` of them.
fn all_pass(
    label: &str,
    file: &Path,
    field: &str,
    min: usize,
    play: impl FnMut(&Value) -> Result<Vec<Played>, String>,
) {
    let (n, failures) = run_file(file, field, play);
    eprintln!("{label} via hexwar play: {}/{n} pass", n - failures.len());
    assert!(n >= min, "{label}: {n} cases, expected at least {min}");
    assert!(
        failures.is_empty(),
        "{label}: {} of {n} cases failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

macro_rules! datc {
    ($name:ident, $file:literal) => {
        #[test]
        fn $name() {
            let dir = datc_dir();
            all_pass($file, &dir.join($file), "expected", 1, play_cli);
        }
    };
}
datc!(cli_datc_6_a_basic_checks, "6.A.json");
datc!(cli_datc_6_b_coastal_issues, "6.B.json");
datc!(cli_datc_6_c_circular_movement, "6.C.json");
datc!(cli_datc_6_h_retreating, "6.H.json");
datc!(cli_datc_6_i_building, "6.I.json");

/// The project's own cases for the DATC sections not given (rules/diplomacy/tests/cases), through
/// the same CLI path: the hidden sections are played through `hexwar play`, not the library.
macro_rules! own {
    ($name:ident, $file:literal) => {
        #[test]
        fn $name() {
            let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules/diplomacy/tests/cases");
            all_pass($file, &dir.join($file), "expected", 1, play_cli);
        }
    };
}
own!(cli_own_6_d_supports_and_dislodges, "6.D.json");
own!(cli_own_6_e_head_to_head, "6.E.json");
own!(cli_own_6_f_convoys, "6.F.json");
own!(cli_own_6_g_convoying_to_adjacent, "6.G.json");
own!(cli_own_6_j_civil_disorder, "6.J.json");
own!(cli_own_more_6_d_to_6_g, "more_6.D-6.G.json");
own!(cli_own_more_6_g, "more_6.G.json");
own!(cli_own_differential, "differential.json");
own!(cli_own_orders_given_twice, "orders_twice.json");
own!(cli_own_aliases, "aliases.json");
own!(cli_reference_6_d_supports, "reference/6.D.json");
own!(cli_reference_6_e_head_to_head, "reference/6.E.json");
own!(cli_reference_6_f_convoys, "reference/6.F.json");
own!(cli_reference_6_g_convoy_to_adjacent, "reference/6.G.json");
own!(cli_reference_6_j_civil_disorder, "reference/6.J.json");
own!(cli_reference_6_k_custom, "reference/6.K.json");

/// The Francqueville variant's cases (every DIP-4 clause and reading) through `hexwar play` on
/// `scenarios/diplomacy-francqueville`, and the same positions under the standard rules
/// (`expected_standard`), where the variant differs: each clause's case shows both sides.
#[test]
fn cli_francqueville_cases() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("rules/diplomacy/variants/francqueville/tests/cases.json");
    all_pass("francqueville", &file, "expected", 50, |case| {
        play_cli_on("scenarios/diplomacy-francqueville", case)
    });
    all_pass(
        "francqueville, standard rules",
        &file,
        "expected_standard",
        40,
        play_cli,
    );
}

/// `hexwar play` of a setup `name` holding `text` (written in `dir`), with no orders: its path
/// and the output.
fn play_setup_alone(dir: &Path, name: &str, text: &str) -> (String, std::process::Output) {
    let setup = write_file(dir, name, text);
    let out = hexwar(&[
        "play",
        "scenarios/diplomacy",
        "--setup",
        &setup,
        "--orders",
        "/dev/null",
    ]);
    (setup, out)
}

/// `play_files` on a setup and an orders file holding these texts, written in a folder of their
/// own.
fn play_texts(setup: &str, orders: &str, json: bool) -> std::process::Output {
    play_diplomacy_texts(setup, orders, if json { &["--json"] } else { &[] })
}

/// `hexwar play` on the standard scenario with a setup file and an orders file (and `--json`
/// when asked).
fn play_files(setup: &str, orders: &str, json: bool) -> std::process::Output {
    play_files_with(setup, orders, if json { &["--json"] } else { &[] })
}

/// `play_files` with `extra` arguments (`--json`, `--stop-on-refusal`).
fn play_files_with(setup: &str, orders: &str, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "play",
        "scenarios/diplomacy",
        "--setup",
        setup,
        "--orders",
        orders,
    ];
    args.extend(extra);
    hexwar(&args)
}

/// An order list the engine refuses (an order over 100 characters) is in `--json` too: the
/// phase's table carries `refused` (the power's units then hold), and with `--stop-on-refusal`
/// the phase not resolved is `{"phase", "stopped": true, "refused"}` (stdout was `[]`).
#[test]
fn a_refused_order_list_is_in_the_json() {
    let long = format!("A MAR - BUR {}x", " ".repeat(300));
    let orders = format!(
        "[[phase]]\nphase = \"S1901M\"\n[phase.orders]\nFRANCE = [\"{long}\"]\nITALY = [\"A PIE - MAR\"]\n"
    );
    let refused = serde_json::json!([{
        "power": "FRANCE",
        "rule": "DIP-orders",
        "reason": "order #1 is 313 characters long (an order is at most 100)"
    }]);
    let out = play_texts(DIPLOMACY_SETUP, &orders, true);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let json: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(json[0]["refused"], refused);
    // (in text, France's units hold because its list was refused: not as orders it gave)
    let text = stdout(&play_texts(DIPLOMACY_SETUP, &orders, false));
    assert!(
        text.contains("  FRANCE   A MAR H                  ok (no order given: it holds: its orders were refused)\n"),
        "{text}"
    );
    assert_eq!(
        json[0]["units"]["FRANCE"],
        serde_json::json!(["A BUR", "A MAR"])
    );
    let dir = tempfile::tempdir().unwrap();
    let setup = write_file(dir.path(), "s.toml", DIPLOMACY_SETUP);
    let orders = write_file(dir.path(), "o.toml", &orders);
    let out = play_files_with(&setup, &orders, &["--json", "--stop-on-refusal"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let json: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(
        json,
        serde_json::json!([{"phase": "S1901M", "stopped": true, "refused": refused}])
    );
}

/// The exact JSON of a phase with a dislodgement, the skipped-phase entry, and the retreat.
#[test]
fn play_json_is_exact() {
    let dir = tempfile::tempdir().unwrap();
    let setup = write_file(dir.path(), "s.toml", DIPLOMACY_SETUP);
    let orders = write_file(
        dir.path(),
        "o.toml",
        r#"[[phase]]
phase = "S1901M"
[phase.orders]
FRANCE = ["A MAR - PIE", "A BUR S A MAR - PIE"]
ITALY = ["A PIE H", "F LYO - TUS"]
[[phase]]
phase = "S1901R"
[phase.orders]
ITALY = ["A PIE R TUS"]
[[phase]]
phase = "F1901M"
[[phase]]
phase = "F1901R"
"#,
    );
    let out = play_files(&setup, &orders, true);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let centers = r#""centers":{"AUSTRIA":["BUD","TRI","VIE"],"ENGLAND":["EDI","LON","LVP"],"FRANCE":["BRE","MAR","PAR"],"GERMANY":["BER","KIE","MUN"],"ITALY":["NAP","ROM","VEN"],"RUSSIA":["MOS","SEV","STP","WAR"],"TURKEY":["ANK","CON","SMY"]}"#;
    let expected = format!(
        concat!(
            r#"[{{"phase":"S1901M","results":[{{"power":"FRANCE","order":"A BUR S A MAR - PIE","unit":"A BUR","flags":["void"]}},"#,
            r#"{{"power":"FRANCE","order":"A MAR - PIE","unit":"A MAR","flags":["bounce"]}},"#,
            r#"{{"power":"ITALY","order":"A PIE H","unit":"A PIE","flags":[]}},"#,
            r#"{{"power":"ITALY","order":"F LYO - TUS","unit":"F LYO","flags":[]}}],"#,
            r#""units":{{"FRANCE":["A BUR","A MAR"],"ITALY":["A PIE","F TUS"]}},"dislodged":[],"disbanded":[],{c},"next_phase":"F1901M"}},"#,
            r#"{{"phase":"S1901R","skipped":true}},"#,
            r#"{{"phase":"F1901M","results":[{{"power":"FRANCE","order":"A BUR H","unit":"A BUR","flags":[]}},"#,
            r#"{{"power":"FRANCE","order":"A MAR H","unit":"A MAR","flags":[]}},"#,
            r#"{{"power":"ITALY","order":"A PIE H","unit":"A PIE","flags":[]}},"#,
            r#"{{"power":"ITALY","order":"F TUS H","unit":"F TUS","flags":[]}}],"#,
            r#""units":{{"FRANCE":["A BUR","A MAR"],"ITALY":["A PIE","F TUS"]}},"dislodged":[],"disbanded":[],{c},"next_phase":"W1901A"}},"#,
            r#"{{"phase":"F1901R","skipped":true}}]"#,
            "\n"
        ),
        c = centers
    );
    assert_eq!(stdout(&out), expected);
}

/// An order written twice for one unit in an adjustment phase: the copies cannot be told apart,
/// and the void one comes first, as the reference engine lists them (DATC 6.J.2, 6.I.7).
#[test]
fn a_duplicate_adjustment_order_is_listed_void_first() {
    let dir = tempfile::tempdir().unwrap();
    let setup = write_file(
        dir.path(),
        "s.toml",
        "phase = \"W1901A\"\n[units]\nFRANCE = [\"A PIC\", \"A PAR\", \"F NAO\"]\n[centers]\nFRANCE = [\"PAR\"]\n",
    );
    let orders = write_file(
        dir.path(),
        "o.toml",
        "[[phase]]\nphase = \"W1901A\"\n[phase.orders]\nFRANCE = [\"A PAR D\", \"A PAR D\"]\n",
    );
    let out = play_files(&setup, &orders, true);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let json: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let results: Vec<(String, Value)> = json[0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["order"].as_str().unwrap().to_string(), r["flags"].clone()))
        .collect();
    assert_eq!(
        results,
        vec![
            ("A PAR D".to_string(), serde_json::json!(["void"])),
            ("A PAR D".to_string(), serde_json::json!([])),
            ("F NAO D".to_string(), serde_json::json!([])),
        ]
    );
}

/// A setup's phase, units and centres are read in any case, as orders are (`s1901m`, `a par`):
/// the same board as the upper-case setup, and the same results.
#[test]
fn a_setup_is_read_in_any_case_as_orders_are() {
    let orders = "[[phase]]\nphase = \"s1901m\"\n[phase.orders]\nFRANCE = [\"a par - bur\"]\n";
    let upper = play_texts(
        "phase = \"S1901M\"\n[units]\nFRANCE = [\"A PAR\", \"F BRE\"]\nGERMANY = [\"A MUN\"]\n[centers]\nFRANCE = [\"PAR\"]\n",
        orders,
        true,
    );
    let lower = play_texts(
        "phase = \"s1901m\"\n[units]\nFRANCE = [\"a par\", \"f bre\"]\nGERMANY = [\"A mun\"]\n[centers]\nFRANCE = [\"par\"]\n",
        orders,
        true,
    );
    assert_eq!(lower.status.code(), Some(0), "{}", stderr(&lower));
    assert_eq!(stdout(&lower), stdout(&upper));
    let json: Value = serde_json::from_str(&stdout(&lower)).unwrap();
    assert_eq!(
        json[0]["units"]["FRANCE"],
        serde_json::json!(["A BUR", "F BRE"])
    );
    assert_eq!(json[0]["centers"]["FRANCE"], serde_json::json!(["PAR"]));
}

#[test]
fn a_dislodgement_lists_retreats_and_the_text_form_reads() {
    let dir = tempfile::tempdir().unwrap();
    let setup = write_file(
        dir.path(),
        "s.toml",
        "phase = \"S1901M\"\n[units]\nFRANCE = [\"A MAR\", \"F LYO\"]\nITALY = [\"A PIE\"]\n",
    );
    let orders = write_file(
        dir.path(),
        "o.toml",
        "[[phase]]\nphase = \"S1901M\"\n[phase.orders]\nFRANCE = [\"A MAR - PIE\", \"F LYO S A MAR - PIE\"]\n\
         [[phase]]\nphase = \"S1901R\"\n[phase.orders]\nITALY = []\n",
    );
    let out = play_files(&setup, &orders, false);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.starts_with("S1901M:\n  FRANCE   A MAR - PIE              ok\n  FRANCE   F LYO S A MAR - PIE      ok\n  ITALY    A PIE H                  dislodged (no order given: it holds)\n  dislodged: ITALY A PIE (by MAR), retreats: TUS, TYR, VEN\n  units:\n    FRANCE: A PIE, F LYO\n    ITALY: -\n"),
        "{text}"
    );
    assert!(
        text.contains("S1901R:\n  ITALY    A PIE D                  disband (no order given)\n  disbanded: A PIE\n"),
        "{text}"
    );
    assert!(text.ends_with("  next phase: F1901M\n"), "{text}");
}

/// What the report alone does not tell a game master publishing results: an order a later one
/// for the same unit replaced (movement: the last counts), and the entries no order gave: a
/// unit left unordered holds, and a power that sends no adjustment orders disbands in civil
/// disorder, both of which read like orders in the report.
#[test]
fn the_text_form_marks_unordered_units_civil_disorder_and_replaced_orders() {
    let dir = tempfile::tempdir().unwrap();
    let setup = write_file(
        dir.path(),
        "s.toml",
        "phase = \"F1901M\"\n[units]\nFRANCE = [\"A PAR\", \"A MAR\"]\nGERMANY = [\"A MUN\", \"A RUH\"]\n\
         [centers]\nFRANCE = [\"PAR\", \"MAR\"]\nGERMANY = [\"MUN\"]\n",
    );
    let orders = write_file(
        dir.path(),
        "o.toml",
        "[[phase]]\nphase = \"F1901M\"\n[phase.orders]\nFRANCE = [\"A PAR - BUR\", \"A PAR - PIC\"]\n\
         [[phase]]\nphase = \"W1901A\"\n",
    );
    let out = play_files(&setup, &orders, false);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.starts_with(
            "F1901M:\n  FRANCE   A MAR H                  ok (no order given: it holds)\n  \
             FRANCE   A PAR - PIC              ok\n  \
             GERMANY  A MUN H                  ok (no order given: it holds)\n  \
             GERMANY  A RUH H                  ok (no order given: it holds)\n  \
             FRANCE   A PAR - BUR              not played (a later order for the unit replaces it)\n"
        ),
        "{text}"
    );
    assert!(
        text.contains(
            "W1901A:\n  GERMANY  A RUH D                  ok (civil disorder: no order given)\n"
        ),
        "{text}"
    );
}

/// `legal`'s lists pasted one after the other, each ending with its side's end_phase: the first
/// end_phase resolves the phase for every power, and the next power's orders fall in the next
/// phase. `legal` says so above its end_phase, and `play` says so when it happens.
#[test]
fn an_end_phase_that_resolves_a_phase_before_other_powers_orders_is_noted() {
    let out = hexwar(&["legal", "scenarios/diplomacy", "--side", "FRANCE"]);
    assert!(
        stdout(&out).ends_with(
            "  # end_phase resolves the phase for every side: give it once, after all their orders\n  \
             { side = \"FRANCE\", command = \"end_phase\" },\n"
        ),
        "{}",
        stdout(&out)
    );
    let dir = tempfile::tempdir().unwrap();
    let orders = write_file(
        dir.path(),
        "o.toml",
        "order = [\n  { side = \"FRANCE\", command = \"order\", order = \"A PAR - BUR\", power = \"FRANCE\" },\n  \
         { side = \"FRANCE\", command = \"end_phase\" },\n  \
         { side = \"GERMANY\", command = \"order\", order = \"A MUN - BUR\", power = \"GERMANY\" },\n  \
         { side = \"GERMANY\", command = \"end_phase\" },\n]\n",
    );
    let out = hexwar(&["play", "scenarios/diplomacy", "--orders", &orders]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        format!(
            "note: {orders}:3: FRANCE's end_phase resolved S1901M for every side; the file's later \
             commands of GERMANY are played in the next phase (give one end_phase after every \
             side's orders)\n"
        )
    );
    // (the orders given before one end_phase: no note)
    let orders = write_file(
        dir.path(),
        "p.toml",
        "order = [\n  { side = \"FRANCE\", command = \"order\", order = \"A PAR - BUR\", power = \"FRANCE\" },\n  \
         { side = \"GERMANY\", command = \"order\", order = \"A MUN - BUR\", power = \"GERMANY\" },\n  \
         { side = \"GERMANY\", command = \"end_phase\" },\n]\n",
    );
    let out = hexwar(&["play", "scenarios/diplomacy", "--orders", &orders]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stderr(&out), "");
}

#[test]
fn bad_setups_and_out_of_order_phases_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let orders = write_file(dir.path(), "o.toml", "[[phase]]\nphase = \"S1901M\"\n");
    for (text, needle) in [
        (
            "phase = \"S1901M\"\n[units]\nFRANCE = [\"A MAO\"]\n",
            "an army cannot stand at sea",
        ),
        (
            "phase = \"S1901M\"\n[units]\nFRANCE = [\"F STP\"]\n",
            "name the coast",
        ),
        (
            "phase = \"S1901M\"\n[units]\nNARNIA = [\"A PAR\"]\n",
            "'NARNIA' is not a power",
        ),
        (
            "phase = \"S1999M\"\n",
            "phase 'S1999M' is not a phase of this scenario",
        ),
        ("phase = \"S1901M\"\n[units\n", "s.toml:2: TOML"),
        // (the engine's [[unit]] tables replaced its units and left the rules' board as it was)
        (
            "phase = \"S1901M\"\n[[unit]]\nid = \"FRANCE-1\"\nside = \"FRANCE\"\ntype = \"army\"\nat = \"PAR\"\n",
            "setup refused: DIP-setup: a Diplomacy position gives its units as [units], POWER = \
             [\"A PAR\", \"F STP/NC\", ...], not as [[unit]] tables",
        ),
    ] {
        let setup = write_file(dir.path(), "s.toml", text);
        let out = play_files(&setup, &orders, false);
        assert_eq!(out.status.code(), Some(2), "{text}");
        assert!(stderr(&out).contains(&setup), "{}", stderr(&out));
        assert!(stderr(&out).contains(needle), "{text}: {}", stderr(&out));
    }
    let setup = write_file(dir.path(), "s.toml", DIPLOMACY_SETUP);
    let late = write_file(dir.path(), "late.toml", "[[phase]]\nphase = \"F1901M\"\n");
    let out = play_files(&setup, &late, true);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("orders for phase 'F1901M', but the game is at phase S1901M"));
    // (refused before anything was played: the outputs named are left as they were; they were
    // replaced by the setup's position and its log)
    let save = write_file(dir.path(), "earlier.json", "an earlier save");
    let log = write_file(dir.path(), "earlier.jsonl", "an earlier log");
    let out = play_files_with(&setup, &late, &["--save", &save, "--log", &log]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(&save).unwrap(), "an earlier save");
    assert_eq!(std::fs::read_to_string(&log).unwrap(), "an earlier log");
}

/// One unit a province in a setup; the Francqueville variant also takes a stack of one power's
/// units (R-g2), never units of two powers in one province.
#[test]
fn a_setup_with_two_units_in_a_province_is_refused_but_for_a_variant_stack_of_one_power() {
    let dir = tempfile::tempdir().unwrap();
    let orders = write_file(
        dir.path(),
        "o.toml",
        "[[phase]]\nphase = \"S1901M\"\n[phase.orders]\nRUSSIA = [\"F NWG - NAO\", \"F NWG H\"]\n",
    );
    let own = write_file(
        dir.path(),
        "own.toml",
        "phase = \"S1901M\"\n[units]\nRUSSIA = [\"F NWG\", \"F NWG\"]\n",
    );
    let mixed = write_file(
        dir.path(),
        "mixed.toml",
        "phase = \"S1901M\"\n[units]\nFRANCE = [\"F NWG\"]\nRUSSIA = [\"F NWG\"]\n",
    );
    let play = |scenario: &str, setup: &str| {
        hexwar(&[
            "play", scenario, "--setup", setup, "--orders", &orders, "--json",
        ])
    };
    for (scenario, setup, held) in [
        (
            "scenarios/diplomacy",
            &own,
            "RUSSIA's F NWG (one unit a province)",
        ),
        (
            "scenarios/diplomacy",
            &mixed,
            "FRANCE's F NWG (one unit a province)",
        ),
        (
            "scenarios/diplomacy-francqueville",
            &mixed,
            "FRANCE's F NWG (one unit a province, or units of one power)",
        ),
    ] {
        let out = play(scenario, setup);
        assert_eq!(out.status.code(), Some(2), "{scenario} {setup}");
        assert_eq!(
            stderr(&out),
            format!(
                "error: {setup}:{line}: setup refused: DIP-setup: [units].RUSSIA: 'F NWG': NWG already holds {held}\n",
                // (the line that writes RUSSIA's F NWG)
                line = if *setup == own { 3 } else { 4 }
            )
        );
    }
    let out = play("scenarios/diplomacy-francqueville", &own);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let phases: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(phases[0]["units"]["RUSSIA"], json!(["F NAO", "F NWG"]));
    // (the text form lists both orders as played, each for one fleet of the stack, and none as
    // "not played (a later order for the unit replaces it)")
    let out = hexwar(&[
        "play",
        "scenarios/diplomacy-francqueville",
        "--setup",
        &own,
        "--orders",
        &orders,
    ]);
    let text = stdout(&out);
    assert!(
        text.contains("  RUSSIA   F NWG - NAO              ok\n"),
        "{text}"
    );
    assert!(
        text.contains("  RUSSIA   F NWG H                  ok\n"),
        "{text}"
    );
    assert!(!text.contains("not played"), "{text}");
}

/// Every problem of a setup is named at once: a unit the board cannot hold, two units in one
/// province and a centre owned twice (the last two were told only once the first was mended).
#[test]
fn a_setup_names_all_its_problems_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let setup = write_file(
        dir.path(),
        "s.toml",
        "phase = \"S1901M\"\n[units]\nFRANCE = [\"F PAR\", \"A BUR\"]\nGERMANY = [\"A BUR\"]\n[centers]\nFRANCE = [\"BEL\"]\nGERMANY = [\"BEL\"]\n",
    );
    let orders = write_file(dir.path(), "o.toml", "[[phase]]\nphase = \"S1901M\"\n");
    let out = play_files(&setup, &orders, false);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        format!(
            "error: {setup}:3: setup refused: DIP-setup: [units].FRANCE: unit 'F PAR': a fleet cannot stand inland; \
             [units].GERMANY: 'A BUR': BUR already holds FRANCE's A BUR (one unit a province); \
             [centers].GERMANY: 'BEL' is FRANCE's already (a centre has one owner)\n"
        )
    );
}

#[test]
fn orders_for_a_power_the_game_lacks_are_an_input_error() {
    let out = hexwar(&["play", "scenarios/diplomacy", "--orders", "/dev/null"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "an empty [[order]] file plays nothing"
    );
    let dir = tempfile::tempdir().unwrap();
    let orders = write_file(
        dir.path(),
        "o.toml",
        "[[phase]]\nphase = \"S1901M\"\n[phase.orders]\nNARNIA = [\"A PAR H\"]\n",
    );
    let out = hexwar(&["play", "scenarios/diplomacy", "--orders", &orders, "--json"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        format!(
            "error: {orders}:4: phase S1901M: unknown power 'NARNIA' \
             (powers: AUSTRIA, ENGLAND, FRANCE, GERMANY, ITALY, RUSSIA, TURKEY)\n"
        )
    );
    assert_eq!(stdout(&out), "", "refused before any phase is played");
}

/// Orders for a phase the game has passed, in an earlier run (S1901R, skipped: nothing to
/// retreat), are refused as past, not "give F1901M first", which sent a game master looking
/// for a phase to insert; the save is left as it was.
#[test]
fn orders_for_a_phase_an_earlier_run_passed_are_refused_as_past() {
    let dir = tempfile::tempdir().unwrap();
    let first = write_file(
        dir.path(),
        "s.toml",
        "[[phase]]\nphase = \"S1901M\"\n[phase.orders]\nFRANCE = [\"A PAR - BUR\"]\n",
    );
    let save = dir.path().join("s.json");
    let save = save.to_str().unwrap();
    let out = hexwar(&[
        "play",
        "scenarios/diplomacy",
        "--orders",
        &first,
        "--save",
        save,
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let saved = std::fs::read(save).unwrap();
    let late = write_file(
        dir.path(),
        "r.toml",
        "[[phase]]\nphase = \"s1901r\"\n[[phase]]\nphase = \"F1901M\"\n",
    );
    let out = hexwar(&["play", save, "--orders", &late, "--save", save]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        format!(
            "error: {late}:1: orders for phase 's1901r', but the game is at phase F1901M, past \
             it (played or passed over before this file): leave its entry out; phases must come \
             in order\n"
        )
    );
    assert_eq!(
        std::fs::read(save).unwrap(),
        saved,
        "the save is left as it was"
    );
}

/// Orders for a phase the game is not at (exit 2) after a phase that was played: with `--json`
/// stdout is still one JSON value, the array of the phases done.
#[test]
fn phases_done_before_an_out_of_order_phase_are_still_one_json_array() {
    let dir = tempfile::tempdir().unwrap();
    let orders = write_file(
        dir.path(),
        "o.toml",
        "[[phase]]\nphase = \"S1901M\"\n[phase.orders]\nFRANCE = [\"A PAR - BUR\"]\n\
         [[phase]]\nphase = \"S1903M\"\n",
    );
    let out = hexwar(&["play", "scenarios/diplomacy", "--orders", &orders, "--json"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        format!(
            "error: {orders}:5: orders for phase 'S1903M', but the game is at phase F1901M: give \
             F1901M first (an entry without orders if there are none); phases must come in order\n"
        )
    );
    let done: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let done = done.as_array().unwrap();
    assert_eq!(done.len(), 1);
    assert_eq!(done[0]["phase"], "S1901M");
    assert_eq!(
        done[0]["units"]["FRANCE"],
        json!(["A BUR", "A MAR", "F BRE"])
    );
    assert_eq!(done[0]["next_phase"], "F1901M");
}

/// The phase that ends the game says so (`hexwar play` used to print nothing of it: only orders
/// for a later phase found out, with an error): France takes Munich, its 18th centre.
#[test]
fn play_reports_the_phase_that_ends_the_game_with_its_winner() {
    let dir = tempfile::tempdir().unwrap();
    let setup = dir.path().join("setup.toml");
    let orders = dir.path().join("orders.toml");
    std::fs::write(
        &setup,
        "phase = \"F1901M\"\n[units]\nFRANCE = [\"A BUR\"]\nGERMANY = [\"A KIE\"]\n[centers]\n\
         FRANCE = [\"PAR\", \"BRE\", \"MAR\", \"SPA\", \"POR\", \"BEL\", \"HOL\", \"DEN\", \"NWY\", \
         \"SWE\", \"LON\", \"LVP\", \"EDI\", \"TUN\", \"NAP\", \"ROM\", \"VEN\"]\nGERMANY = [\"KIE\", \"BER\"]\n",
    )
    .unwrap();
    std::fs::write(
        &orders,
        "[[phase]]\nphase = \"F1901M\"\n[phase.orders]\nFRANCE = [\"A BUR - MUN\"]\n",
    )
    .unwrap();
    let (s, o) = (setup.to_str().unwrap(), orders.to_str().unwrap());
    let out = hexwar(&[
        "play",
        "scenarios/diplomacy",
        "--setup",
        s,
        "--orders",
        o,
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.trim_end().ends_with(
            "\"next_phase\":\"W1901A\",\"game_over\":{\"reason\":\"DIP: FRANCE holds 18 supply centres\",\"winner\":\"FRANCE\"}}]"
        ),
        "{text}"
    );
    let out = hexwar(&["play", "scenarios/diplomacy", "--setup", s, "--orders", o]);
    // (the text names no next phase of a game that is over: it read "next phase: W1901A")
    let text = stdout(&out);
    assert!(
        text.ends_with("\n  game over: FRANCE (DIP: FRANCE holds 18 supply centres)\n")
            && !text.contains("next phase: W1901A"),
        "{text}"
    );
}

/// A setup key the rules do not read (`[centres]` for `[centers]`) was set aside: the board's
/// own centres were played without a word. It is refused, naming the key, its line and the
/// nearest one.
#[test]
fn dip_setup_refuses_an_unknown_key() {
    let dir = tempfile::tempdir().unwrap();
    let (setup, out) = play_setup_alone(dir.path(), "centres.toml",
        "phase = \"S1901M\"\n[units]\nFRANCE = [\"A PAR\"]\n[centres]\nFRANCE = [\"PAR\", \"BRE\"]\n",
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        format!(
            "error: {setup}:4: setup refused: DIP-setup: unknown key 'centres' (did you mean 'centers'?) \
             (a setup holds centers, dislodged, phase, units)\n"
        )
    );
}

/// In text, a void order says why beside it (the rules' `check_order`, asked on the position
/// before the phase resolves), so a typo does not quietly cost a unit its move; the JSON
/// report keeps its pinned fields.
#[test]
fn play_text_says_why_each_void_order_is_void() {
    let dir = tempfile::tempdir().unwrap();
    let setup = write_file(
        dir.path(),
        "s.toml",
        "phase = \"S1901M\"\n[units]\nENGLAND = [\"A LVP\", \"F LON\"]\nFRANCE = [\"A MAR\", \"A BUR\", \"F MAO\"]\nITALY = [\"A PIE\"]\n",
    );
    let orders = write_file(
        dir.path(),
        "o.toml",
        r#"[[phase]]
phase = "S1901M"
[phase.orders]
ENGLAND = ["A LVP - NWX", "F LON-ENG"]
FRANCE = ["A MAR - PIE", "A BUR S A MAR - PIE", "A PAR H", "F MAO - SPA"]
"#,
    );
    let out = play_files(&setup, &orders, false);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let void: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("void"))
        .map(str::trim)
        .collect();
    assert_eq!(
        void,
        [
            "ENGLAND  A LVP - NWX              void ('NWX' is no province or coast of the map (did you mean NWG?))",
            "ENGLAND  F LON-ENG                void (write a move with spaces around its dash (F LON - ENG))",
            "FRANCE   A BUR S A MAR - PIE      void (A BUR cannot reach PIE, where the support is given)",
            "FRANCE   A PAR H                  void (FRANCE has no army in PAR)",
            "FRANCE   F MAO - SPA              void (a fleet moving to SPA names the coast (SPA/NC, SPA/SC))",
        ]
    );
    let json = play_files(&setup, &orders, true);
    assert!(!stdout(&json).contains("reason"), "{}", stdout(&json));
}

/// A phase label is read whatever its case, as orders are ("s1901m" is S1901M), and whatever
/// spaces surround it ("S1901M " was refused as "orders for phase S1901M , but the game is at
/// phase S1901M").
#[test]
fn a_phase_label_in_lower_case_or_with_spaces_is_the_phase() {
    let dir = tempfile::tempdir().unwrap();
    for label in ["s1901m", "S1901M ", " s1901M"] {
        let orders = write_file(
            dir.path(),
            "o.toml",
            &format!(
                "[[phase]]\nphase = \"{label}\"\n[phase.orders]\nFRANCE = [\"A PAR - BUR\"]\n"
            ),
        );
        let out = hexwar(&["play", "scenarios/diplomacy", "--orders", &orders, "--json"]);
        assert_eq!(out.status.code(), Some(0), "{label}: {}", stderr(&out));
        let done: Value = serde_json::from_str(&stdout(&out)).unwrap();
        assert_eq!(done[0]["phase"], "S1901M");
        assert_eq!(done[0]["units"]["FRANCE"][0], "A BUR", "{}", stdout(&out));
    }
    // (a skipped phase written with spaces is reported by its label)
    let orders = write_file(
        dir.path(),
        "o.toml",
        "[[phase]]\nphase = \"S1901M\"\n[[phase]]\nphase = \" S1901R \"\n[[phase]]\nphase = \"F1901M\"\n",
    );
    let out = hexwar(&["play", "scenarios/diplomacy", "--orders", &orders, "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let done: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(
        done[1],
        serde_json::json!({"phase": "S1901R", "skipped": true})
    );
}

/// A setup written by hand with several mistakes names them all at once (units and centres,
/// in power order), not one per try.
#[test]
fn a_setup_names_every_bad_unit_and_centre_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let (setup, out) = play_setup_alone(
        dir.path(),
        "s.toml",
        "phase = \"S1901M\"\n[units]\nRUSSIA = [\"F MOS\"]\nENGLAND = [\"A NTH\", \"F LON\"]\n\
         [centers]\nENGLAND = [\"NTH\"]\n",
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        format!(
            "error: {setup}:4: setup refused: DIP-setup: [units].ENGLAND: unit 'A NTH': an army \
             cannot stand at sea; [units].RUSSIA: unit 'F MOS': a fleet cannot stand inland; \
             [centers].ENGLAND: 'NTH' is not a supply centre\n"
        )
    );
}

/// A power written in another case, or one letter off, is pointed to its name (orders files
/// and --until-side alike).
#[test]
fn a_power_in_lower_case_is_pointed_to_its_name() {
    let dir = tempfile::tempdir().unwrap();
    let orders = write_file(
        dir.path(),
        "o.toml",
        "[[phase]]\nphase = \"S1901M\"\n[phase.orders]\nfrance = [\"A PAR - BUR\"]\n",
    );
    let out = hexwar(&["play", "scenarios/diplomacy", "--orders", &orders]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        format!(
            "error: {orders}:4: phase S1901M: unknown power 'france': did you mean 'FRANCE'? \
             (powers: AUSTRIA, ENGLAND, FRANCE, GERMANY, ITALY, RUSSIA, TURKEY)\n"
        )
    );
    let out = hexwar(&["run", "scenarios/diplomacy", "--until-side", "ENGLND"]);
    assert_eq!(
        stderr(&out),
        "error: --until-side: unknown side 'ENGLND': did you mean 'ENGLAND'? (sides: AUSTRIA, \
         ENGLAND, FRANCE, GERMANY, ITALY, RUSSIA, TURKEY)\n"
    );
}

/// An order that stands alone but is void beside the orders given says why: a second build in
/// one centre, a build past the ones due, a support its supported unit's order does not match
/// (6.D.x), a support against the power's own unit that stays (6.D.10). It said "it stands
/// alone; void beside the other orders given" of them all.
#[test]
fn play_text_says_why_an_order_is_void_only_beside_the_others() {
    // (the text `play` prints for a setup and orders holds every one of `lines`)
    let prints = |setup: &str, orders: &str, lines: &[&str]| {
        let out = play_texts(setup, orders, false);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let text = stdout(&out);
        for line in lines {
            assert!(text.contains(line), "{line}{text}");
        }
    };
    prints(
        "phase = \"W1901A\"\n[units]\nFRANCE = [\"F BRE\"]\nGERMANY = [\"A BER\", \"A HOL\"]\n[centers]\nFRANCE = [\"BRE\", \"PAR\", \"MAR\"]\nGERMANY = [\"BER\", \"KIE\", \"MUN\"]\n",
        "[[phase]]\nphase = \"W1901A\"\n[phase.orders]\nFRANCE = [\"A PAR B\", \"A MAR B\", \"F MAR B\"]\nGERMANY = [\"A KIE B\", \"A MUN B\"]\n",
        &[
            "  FRANCE   F MAR B                  void (a second build in MAR)\n",
            "  GERMANY  A MUN B                  void (GERMANY has 1 build due and orders 2: the ones past the due are void)\n",
        ],
    );
    prints(
        "phase = \"S1901M\"\n[units]\nGERMANY = [\"A MUN\", \"A BER\", \"A KIE\", \"A SIL\", \"A PRU\", \"A TYR\"]\nRUSSIA = [\"A WAR\"]\nAUSTRIA = [\"A VIE\"]\n",
        "[[phase]]\nphase = \"S1901M\"\n[phase.orders]\nGERMANY = [\"A MUN - BOH\", \"A BER S A MUN - SIL\", \"A KIE S A MUN\", \"A SIL H\", \"A PRU S A WAR - SIL\", \"A TYR S A VIE - BOH\"]\nRUSSIA = [\"A WAR - SIL\"]\n",
        &[
            "  GERMANY  A BER S A MUN - SIL      void (the army in MUN is ordered A MUN - BOH, not to move to SIL)\n",
            "  GERMANY  A KIE S A MUN            void (the army in MUN is ordered to move (A MUN - BOH): a support to hold needs it to stay)\n",
            "  GERMANY  A PRU S A WAR - SIL      void (the move is onto GERMANY's own A SIL, which stays: a power's support does not help to dislodge its own unit (DATC 6.D.10))\n",
            "  GERMANY  A TYR S A VIE - BOH      void (the army in VIE has no order (it holds), not a move to BOH)\n",
        ],
    );
}

/// A designer's map whose ids are not three letters (seas `WSEA` and `EBAY`, a split-coast
/// province `IS`): orders to and from them are read whole. The rules took a location's first
/// three letters for its province, so `F NOR - WSEA` was void ("not adjacent for a fleet")
/// and the bots stopped on 'WSE'.
#[test]
fn a_map_whose_ids_are_not_three_letters_plays_its_orders() {
    const SMALL: &str = "tests/fixtures/diplomacy_small_map";
    let out = hexwar(&[
        "play",
        SMALL,
        "--orders",
        &format!("{SMALL}/orders.toml"),
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let phases: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let flags = |phase: usize| -> Vec<(String, Value)> {
        phases[phase]["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| (r["order"].as_str().unwrap().to_string(), r["flags"].clone()))
            .collect()
    };
    let ok = json!([]);
    assert_eq!(
        flags(0),
        [
            ("A EMT - MRS".to_string(), ok.clone()),
            ("F EAS - EBAY".to_string(), ok.clone()),
            ("A NHL - FRT".to_string(), ok.clone()),
            ("F NOR - WSEA".to_string(), ok.clone()),
            ("A SPL H".to_string(), ok.clone()),
            ("F SOU - IS".to_string(), ok.clone()),
        ]
    );
    assert_eq!(
        phases[0]["units"],
        json!({"EAST": ["A MRS", "F EBAY"], "NORTH": ["A FRT", "F WSEA"], "SOUTH": ["A SPL", "F IS/WC"]})
    );
    assert_eq!(flags(1)[5], ("F IS H".to_string(), json!(["dislodged"])));
    assert_eq!(
        phases[1]["dislodged"],
        json!([{"power": "SOUTH", "unit": "F IS/WC", "by": "FRT", "retreats": ["SOU"]}])
    );
    // The bots play it through (they read provinces the same way).
    let out = hexwar(&["run", SMALL, "--games", "4", "--seed", "1", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}
