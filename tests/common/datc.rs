//! DATC-style case files (the shared DATC README's `expected` vocabulary plus the hexwar
//! extensions of docs/diplomacy.md), checked against what a game reported. The same checker
//! serves the library path (Session) and the CLI path (`hexwar play --json`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use hexwar::report::PhaseReport;
use serde_json::{Map, Value};

/// Where the shared DATC data lives, relative to the repository root (CI has it).
pub const DATC_DIR: &str = "../shared/data/diplomacy/datc";

/// The project's copy of the DATC sections the shared data gives (published test cases), so
/// that a checkout without `../shared` (a worktree elsewhere) still runs them: they were
/// skipped there, and a rule broken in such a checkout passed every DATC test.
pub const DATC_COPY: &str = "tests/data/datc";

/// The DATC directory: the shared one when it is there (sections added to it are run too),
/// else the project's copy (with a note).
pub fn datc_dir() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = root.join(DATC_DIR);
    if dir.is_dir() {
        return dir;
    }
    eprintln!(
        "note: {} is absent; the DATC tests read the project's copy, {DATC_COPY}",
        dir.display()
    );
    root.join(DATC_COPY)
}

/// The `*.json` section files of a DATC folder, in name order.
pub fn section_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files
}

/// The cases of one file.
pub fn load_cases(path: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path).unwrap();
    let file: Value = serde_json::from_str(&text).unwrap();
    file["cases"].as_array().cloned().unwrap_or_default()
}

/// One phase of a case as played: a report, or the phase was skipped by the game.
pub enum Played {
    Report {
        report: PhaseReport,
        /// Units still waiting to retreat after the phase.
        waiting: Vec<String>,
    },
    Skipped,
}

/// The phases of a case: (phase, orders, expected) for the first phase and each later phase.
pub fn phases<'a>(case: &'a Value, field: &str) -> Vec<(String, &'a Value, Option<&'a Value>)> {
    let mut out = vec![(
        case["phase"].as_str().unwrap_or("").to_string(),
        &case["orders"],
        case.get(field).filter(|v| !v.is_null()),
    )];
    for lp in case["later_phases"].as_array().into_iter().flatten() {
        out.push((
            lp["phase"].as_str().unwrap_or("").to_string(),
            &lp["orders"],
            lp.get(field).filter(|v| !v.is_null()),
        ));
    }
    out
}

/// The setup table of a case (what `--setup` holds).
pub fn setup_of(case: &Value) -> Map<String, Value> {
    let mut t = Map::new();
    t.insert("phase".into(), case["phase"].clone());
    t.insert("units".into(), case["units"].clone());
    if case["centers"].is_object() {
        t.insert("centers".into(), case["centers"].clone());
    }
    if case["dislodged"].is_array() {
        t.insert("dislodged".into(), case["dislodged"].clone());
    }
    t
}

/// Split-coast provinces (a fleet written "F SPA" matches either coast).
fn split_provinces() -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/diplomacy/map.toml");
    let board = hexwar::board::load_board(&path).unwrap();
    let map = board.as_area().unwrap();
    map.regions()
        .iter()
        .filter(|r| !r.coasts.is_empty())
        .map(|r| r.id.clone())
        .collect()
}

fn unit_matches(split: &[String], want: &str, have: &str) -> bool {
    if want == have {
        return true;
    }
    let (Some((wt, wl)), Some((ht, hl))) = (want.split_once(' '), have.split_once(' ')) else {
        return false;
    };
    wt == ht && !wl.contains('/') && hl.get(..3) == Some(wl) && split.iter().any(|s| s == wl)
}

/// Owner of each unit before a phase (units and units waiting to retreat).
pub fn owners_of(units: &Value, dislodged: &[(String, String)]) -> BTreeMap<String, String> {
    let mut o = BTreeMap::new();
    for (p, l) in units.as_object().into_iter().flatten() {
        for u in l.as_array().into_iter().flatten() {
            o.insert(u.as_str().unwrap_or("").to_string(), p.clone());
        }
    }
    for (p, u) in dislodged {
        o.insert(u.clone(), p.clone());
    }
    o
}

/// Checks one `expected` block; appends what does not hold.
pub fn check(
    exp: &Value,
    report: &PhaseReport,
    waiting: &[String],
    owners: &BTreeMap<String, String>,
    errs: &mut Vec<String>,
) {
    let split = split_provinces();
    check_with(&split, exp, report, waiting, owners, errs)
}

/// The keys of an `expected` table this checker reads.
const EXPECTED_KEYS: [&str; 12] = [
    "results",
    "results_exact",
    "units",
    "units_exist",
    "dislodged",
    "not_dislodged",
    "any_of",
    "retreats",
    "disbanded",
    "not_disbanded",
    "next_phase",
    "centers",
];

fn strs(v: &Value) -> Vec<String> {
    v.as_array()
        .into_iter()
        .flatten()
        .filter_map(|x| x.as_str().map(String::from))
        .collect()
}

fn check_with(
    split: &[String],
    exp: &Value,
    report: &PhaseReport,
    waiting: &[String],
    owners: &BTreeMap<String, String>,
    errs: &mut Vec<String>,
) {
    // (a key this checker does not know would pass without checking anything)
    for key in exp.as_object().into_iter().flatten().map(|(k, _)| k) {
        if !EXPECTED_KEYS.contains(&key.as_str()) {
            errs.push(format!(
                "the case's `expected` has a key the checker does not know: '{key}'"
            ));
        }
    }
    for (key, flags) in exp["results"].as_object().into_iter().flatten() {
        let owner = owners.get(key);
        let entry = report
            .results
            .iter()
            .find(|e| &e.unit == key && Some(&e.power) == owner)
            .or_else(|| report.results.iter().find(|e| &e.unit == key));
        let Some(e) = entry else {
            errs.push(format!("no result for {key}"));
            continue;
        };
        for f in strs(flags) {
            if f == "ok" {
                if !e.flags.is_empty() {
                    errs.push(format!("{key} expected ok, got {:?}", e.flags));
                }
            } else if !e.flags.contains(&f) {
                errs.push(format!("{key} expected {f}, got {:?}", e.flags));
            }
        }
    }
    for (key, flags) in exp["results_exact"].as_object().into_iter().flatten() {
        let mut got: Vec<String> = report
            .results
            .iter()
            .filter(|e| &e.unit == key)
            .map(|e| {
                if e.flags.is_empty() {
                    "ok".to_string()
                } else {
                    e.flags.join("+")
                }
            })
            .collect();
        let mut want = strs(flags);
        got.sort();
        want.sort();
        if got != want {
            errs.push(format!("{key} exact {want:?}, got {got:?}"));
        }
    }
    let find_unit = |key: &str| -> Option<&String> {
        report
            .units
            .iter()
            .find(|(_, l)| l.iter().any(|u| unit_matches(split, key, u)))
            .map(|(p, _)| p)
    };
    for (key, who) in exp["units"].as_object().into_iter().flatten() {
        let p = find_unit(key);
        match who.as_str() {
            None => {
                if let Some(p) = p {
                    errs.push(format!("{key} should be absent, held by {p}"));
                }
            }
            Some(w) => {
                if p.map(String::as_str) != Some(w) {
                    errs.push(format!("{key} should be {w}, got {p:?}"));
                }
            }
        }
    }
    for key in strs(&exp["units_exist"]) {
        if find_unit(&key).is_none() {
            errs.push(format!("{key} should exist"));
        }
    }
    for (key, by) in exp["dislodged"].as_object().into_iter().flatten() {
        if !report
            .dislodged
            .iter()
            .any(|d| &d.unit == key && Some(d.by.as_str()) == by.as_str())
        {
            errs.push(format!("{key} should be dislodged by {by}"));
        }
    }
    for key in strs(&exp["not_dislodged"]) {
        if waiting.contains(&key) {
            errs.push(format!("{key} still dislodged"));
        }
    }
    if let Some(alts) = exp["any_of"].as_array() {
        for group in alts {
            let any = group.as_array().into_iter().flatten().any(|alt| {
                let mut e2 = Vec::new();
                check_with(split, alt, report, waiting, owners, &mut e2);
                e2.is_empty()
            });
            if !any {
                errs.push("no alternative of any_of holds".into());
            }
        }
    }
    for (key, opts) in exp["retreats"].as_object().into_iter().flatten() {
        match report.dislodged.iter().find(|d| &d.unit == key) {
            None => errs.push(format!("{key} not retreating")),
            Some(d) => {
                if d.retreats != strs(opts) {
                    errs.push(format!(
                        "{key} retreats {:?}, expected {:?}",
                        d.retreats,
                        strs(opts)
                    ));
                }
            }
        }
    }
    for key in strs(&exp["disbanded"]) {
        if !report.disbanded.contains(&key) {
            errs.push(format!("{key} not in disbanded"));
        }
    }
    for key in strs(&exp["not_disbanded"]) {
        if report.disbanded.contains(&key) {
            errs.push(format!("{key} should not be in disbanded"));
        }
    }
    if let Some(n) = exp["next_phase"].as_str() {
        if n != report.next_phase {
            errs.push(format!("next_phase {} expected {n}", report.next_phase));
        }
    }
    for (p, l) in exp["centers"].as_object().into_iter().flatten() {
        let got = report.centers.get(p).cloned().unwrap_or_default();
        if got != strs(l) {
            errs.push(format!("centers {p}: {got:?}, expected {:?}", strs(l)));
        }
    }
}

/// Checks a whole case given how each of its phases was played (in order; a phase missing at
/// the end means the game stopped). Returns the errors.
pub fn check_case(case: &Value, field: &str, played: &[Played]) -> Vec<String> {
    let split = split_provinces();
    let mut errs = Vec::new();
    let mut owners = owners_of(
        &case["units"],
        &case["dislodged"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|d| {
                (
                    d["power"].as_str().unwrap_or("").to_string(),
                    d["unit"].as_str().unwrap_or("").to_string(),
                )
            })
            .collect::<Vec<_>>(),
    );
    let mut last: Option<&PhaseReport> = None;
    for (i, (phase, _, exp)) in phases(case, field).into_iter().enumerate() {
        match played.get(i) {
            None => errs.push(format!("phase {phase} was not played")),
            Some(Played::Report { report, waiting }) => {
                if report.phase != phase {
                    errs.push(format!("played {} instead of {phase}", report.phase));
                }
                if let Some(exp) = exp {
                    check_with(&split, exp, report, waiting, &owners, &mut errs);
                }
                let dislodged: Vec<(String, String)> = report
                    .dislodged
                    .iter()
                    .map(|d| (d.power.clone(), d.unit.clone()))
                    .collect();
                owners = owners_of(&serde_json::to_value(&report.units).unwrap(), &dislodged);
                last = Some(report);
            }
            Some(Played::Skipped) => {
                // Skipped phase: only the board assertions apply, to the board as it stands.
                if let (Some(exp), Some(board)) = (exp, last) {
                    let only = serde_json::json!({"units": exp["units"], "units_exist": exp["units_exist"]});
                    let mut board = board.clone();
                    board.results.clear();
                    board.dislodged.clear();
                    check_with(&split, &only, &board, &[], &owners, &mut errs);
                }
            }
        }
    }
    errs
}

/// Runs every case of a file that has `field` with `play`, returning "id: errors" for failures
/// and the number of cases run.
pub fn run_file(
    path: &Path,
    field: &str,
    mut play: impl FnMut(&Value) -> Result<Vec<Played>, String>,
) -> (usize, Vec<String>) {
    let mut failures = Vec::new();
    let mut n = 0;
    for case in load_cases(path) {
        if field != "expected" && case.get(field).is_none_or(Value::is_null) {
            continue;
        }
        n += 1;
        let id = case["id"].as_str().unwrap_or("?").to_string();
        match play(&case) {
            Err(e) => failures.push(format!("{id}: {e}")),
            Ok(played) => {
                let errs = check_case(&case, field, &played);
                if !errs.is_empty() {
                    failures.push(format!("{id}: {}", errs.join("; ")));
                }
            }
        }
    }
    (n, failures)
}
