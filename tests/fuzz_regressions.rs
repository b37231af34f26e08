//! Fuzz findings kept as regression tests, on stable: each file under
//! `tests/fuzz_regressions/TARGET/` is an input of fuzz target TARGET (fuzz/fuzz_targets/), and
//! the file beside it with `.expected` added holds the exact outcome: `ok`, or the error message.
//! The inputs go through the same library calls as the fuzz targets. Besides the findings
//! (`scenario/map_is_a_device`, `scenario/map_is_a_folder`), each target keeps one bad input
//! whose exact error guards the message the fuzzer saw most.

use std::path::{Path, PathBuf};

use hexwar::board::{parse_area_map, parse_map, SourceText};
use hexwar::cli::orders::{parse_orders, OrdersFile};
use hexwar::engine::Save;
use hexwar::scenario::parse_scenario;
use hexwar::Session;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn outcome<E: std::fmt::Display>(r: Result<(), E>) -> String {
    match r {
        Ok(()) => "ok".into(),
        Err(e) => e.to_string(),
    }
}

/// What the target's parser says about the input.
fn run_target(target: &str, data: &[u8]) -> String {
    let text = match std::str::from_utf8(data) {
        Ok(t) => t,
        Err(_) => return "not UTF-8".into(),
    };
    match target {
        "hex_map" => outcome(parse_map(&SourceText::new("fuzz/map.toml", text)).map(|_| ())),
        "area_map" => outcome(parse_area_map(&SourceText::new("fuzz/map.toml", text)).map(|_| ())),
        "scenario" => {
            let path = root().join("scenarios/demo/scenario.toml");
            match parse_scenario(&SourceText::new(path, text)) {
                Ok(s) => outcome(Session::start_scenario(s, Some(1)).map(|_| ())),
                Err(errors) => errors
                    .iter()
                    .map(|e| e.to_string().replace(&root().display().to_string(), "ROOT"))
                    .collect::<Vec<_>>()
                    .join("\n"),
            }
        }
        "orders" => outcome(parse_orders(Path::new("fuzz/orders.toml"), text).map(|f| {
            let _: OrdersFile = f;
        })),
        "setup" => {
            let games = ["demo", "tactical", "diplomacy"];
            let Some((pick, rest)) = data.split_first() else {
                return "empty".into();
            };
            let Ok(rest) = std::str::from_utf8(rest) else {
                return "not UTF-8".into();
            };
            let game = games[*pick as usize % games.len()];
            let mut session =
                Session::start(&root().join("scenarios").join(game), Some(1)).expect("loads");
            outcome(session.setup_text(&SourceText::new("fuzz/setup.toml", rest)))
        }
        "save" => outcome(Save::from_json(Path::new("fuzz/save.json"), text).map(|_| ())),
        other => panic!("no fuzz target {other}"),
    }
}

#[test]
fn every_kept_fuzz_input_gives_its_expected_outcome() {
    let dir = root().join("tests/fuzz_regressions");
    let mut checked = 0;
    let mut failures = Vec::new();
    let mut targets: Vec<_> = std::fs::read_dir(&dir).unwrap().flatten().collect();
    targets.sort_by_key(|e| e.file_name());
    for target in targets.iter().filter(|e| e.path().is_dir()) {
        let name = target.file_name().to_string_lossy().into_owned();
        let mut cases: Vec<_> = std::fs::read_dir(target.path())
            .unwrap()
            .flatten()
            .collect();
        cases.sort_by_key(|e| e.file_name());
        for case in cases {
            let path = case.path();
            if path.extension().is_some_and(|e| e == "expected") {
                continue;
            }
            let expected_path = PathBuf::from(format!("{}.expected", path.display()));
            let expected = std::fs::read_to_string(&expected_path)
                .unwrap_or_else(|_| panic!("{} has no .expected file", path.display()));
            let got = run_target(&name, &std::fs::read(&path).unwrap());
            checked += 1;
            if got.trim_end() != expected.trim_end() {
                failures.push(format!(
                    "{name}/{}:\n  expected: {}\n  got:      {got}",
                    case.file_name().to_string_lossy(),
                    expected.trim_end()
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        checked > 0,
        "no regression inputs found under {}",
        dir.display()
    );
}
