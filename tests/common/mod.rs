//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Runs the hexwar binary with arguments from the repository root.
pub fn hexwar(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hexwar"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("hexwar runs")
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Copies a directory tree.
pub fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// A scratch copy of the demo scenario and the rules, laid out like the repository
/// (`scenarios/demo`, `rules/`), so a test can break one file.
pub fn demo_copy() -> (tempfile::TempDir, PathBuf) {
    scenario_copy("demo")
}

/// [`demo_copy`] of another scenario of `scenarios/`.
pub fn scenario_copy(name: &str) -> (tempfile::TempDir, PathBuf) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    let scenario = dir.path().join("scenarios").join(name);
    copy_tree(&root.join("scenarios").join(name), &scenario);
    copy_tree(&root.join("rules"), &dir.path().join("rules"));
    (dir, scenario)
}

/// Replaces text in a file, checking that it was there.
pub fn edit(path: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(
        text.contains(from),
        "{} does not contain {from:?}",
        path.display()
    );
    std::fs::write(path, text.replacen(from, to, 1)).unwrap();
}
pub mod datc;

/// A Diplomacy setup of four units around Marseilles and Piedmont, for `play` tests.
pub const DIPLOMACY_SETUP: &str = r#"phase = "S1901M"
[units]
FRANCE = ["A MAR", "A BUR"]
ITALY = ["A PIE", "F LYO"]
"#;

/// `hexwar play` on the standard Diplomacy scenario with a setup and an orders file holding
/// these texts (written in a folder of their own), and `extra` arguments (`--json`, ...).
pub fn play_diplomacy_texts(setup: &str, orders: &str, extra: &[&str]) -> Output {
    let dir = tempfile::tempdir().unwrap();
    let setup = write_file(dir.path(), "s.toml", setup);
    let orders = write_file(dir.path(), "o.toml", orders);
    let mut args = vec![
        "play",
        "scenarios/diplomacy",
        "--setup",
        &setup,
        "--orders",
        &orders,
    ];
    args.extend(extra);
    hexwar(&args)
}

/// Writes `text` to `dir/name` and gives its path as text, for a command line.
pub fn write_file(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_str().unwrap().to_string()
}

/// Writes `map.toml` into `dir`: a five-hex line of clear terrain, 0101 to 0501 (the host API
/// tests' small board).
pub fn write_line_map(dir: &Path) {
    std::fs::write(
        dir.join("map.toml"),
        "name = \"line\"\ncolumns = 5\nrows = 1\ngrid = [\". . . . .\"]\n[legend]\n\".\" = \"clear\"\n",
    )
    .unwrap();
}

/// Writes a one-side area-game scenario into `dir`: `map` as its map file, a rules module of
/// one step (`RED` moves), and `extra` appended to the scenario file (units, `[control]`).
pub fn write_area_scenario(dir: &Path, map: &str, extra: &str) {
    std::fs::write(dir.join("map.toml"), map).unwrap();
    std::fs::write(
        dir.join("seq.lua"),
        "hex.rules.sequence { steps = { { side = \"RED\", phase = \"move\" } } }\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("scenario.toml"),
        format!(
            "id = \"area\"\nname = \"area\"\nmap = \"map.toml\"\nrules = [\"seq\"]\nrule_roots = [\".\"]\nturns = 1\n[[side]]\nname = \"RED\"\n{extra}"
        ),
    )
    .unwrap();
}

/// The Diplomacy bot's (`diplomacy.ai`) answer for `power` with `seed`: an order's text, or `end_phase`.
pub fn diplomacy_bot_answer(session: &mut hexwar::Session, power: &str, seed: u64) -> String {
    let arg = serde_json::json!({ "bot": "diplomacy.ai", "side": power, "seed": seed });
    let got = session.game.query("bot", &arg).unwrap().unwrap();
    match got["command"].as_str() {
        Some("order") => {
            assert_eq!(got["power"], power, "{got}");
            got["order"].as_str().unwrap().to_string()
        }
        Some(other) => other.to_string(),
        None => panic!("no command: {got}"),
    }
}

/// Gives the bot's orders for `power` until it ends its part of the phase: the orders in turn.
pub fn diplomacy_bot_orders(session: &mut hexwar::Session, power: &str, seed: u64) -> Vec<String> {
    let mut out = Vec::new();
    loop {
        let order = diplomacy_bot_answer(session, power, seed);
        if order == "end_phase" {
            return out;
        }
        let mut args = serde_json::Map::new();
        args.insert("power".into(), serde_json::json!(power));
        args.insert("order".into(), serde_json::json!(order));
        let command = hexwar::engine::Command::Custom {
            name: "order".into(),
            args,
        };
        session.game.submit(Some(power), &command).unwrap();
        out.push(order);
        assert!(out.len() < 10, "{out:?}");
    }
}

/// A one-hex move of `unit` from `from` to `to` at a cost of 1, as an engine event.
pub fn moved(unit: &str, from: &str, to: &str) -> hexwar::engine::Event {
    hexwar::engine::Event::UnitMoved {
        unit: unit.into(),
        from: Some(from.into()),
        to: to.into(),
        path: vec![to.into()],
        cost: 1.0,
    }
}

/// `hex` passing to `side`, as an engine event.
pub fn control(hex: &str, side: &str) -> hexwar::engine::Event {
    hexwar::engine::Event::ControlChanged {
        hex: hex.into(),
        side: Some(side.into()),
    }
}

/// The least instruction budget within which the Lua `code` runs as the query `q` of the game
/// `start(limit, query)` makes (`query`: `code` then `return true`), found by bisection
/// between 999 (scenarios take 1000 at least) and 100 000. What a host call charges to the
/// budget is the difference of two of these (`tests/path_api_mutants.rs`,
/// `tests/host_api_mutants.rs`).
pub fn least_budget<D>(code: &str, start: impl Fn(u64, &str) -> (D, hexwar::Session)) -> u64 {
    let query = format!("{code}\nreturn true");
    let runs = |limit: u64| {
        let (_dir, mut s) = start(limit, &query);
        match s.game.query("q", &serde_json::Value::Null) {
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
