//! The map changed in play (docs/movement.md, "The map changed in play"): `HexsideChanged` and
//! `HexChanged` events change the map the rules see. `rules/demo/variants/bridges.lua` builds
//! and blows bridges over the demo's river: the searches, `hex.map`, saves, resumed games and
//! `render` follow; a bad change is refused with the state as it was.

mod common;

use std::path::{Path, PathBuf};

use common::{hexwar, stderr, stdout};
use hexwar::board::SourceText;
use hexwar::engine::{Command, GameError};
use hexwar::Session;
use serde_json::{json, Map, Value};

const BRIDGES: &str = "rules/demo/variants/bridges.lua";

/// b-inf-1 on the river's west bank at 0502 (the river runs between 0502 and 0602), a red
/// unit far away.
const BANK: &str = r#"turn = 1
[[unit]]
id = "b-inf-1"
side = "blue"
type = "infantry"
size = "XX"
ma = 4
strength = 3
at = "0502"
[[unit]]
id = "r-inf-1"
side = "red"
type = "infantry"
size = "XX"
ma = 4
strength = 3
at = "1210"
"#;

fn on_the_bank(mods: &[PathBuf]) -> Session {
    let mut session =
        Session::start_with_mods(Path::new("scenarios/demo"), Some(1), mods).expect("starts");
    session
        .setup_text(&SourceText::new("bank.toml", BANK))
        .expect("the setup fits");
    session
}

fn order(name: &str, across: &str) -> Command {
    let mut args = Map::new();
    args.insert("unit".into(), json!("b-inf-1"));
    args.insert("across".into(), json!(across));
    Command::Custom {
        name: name.into(),
        args,
    }
}

/// The hexes b-inf-1 reaches east of the river (columns 06 and up), with their costs.
fn reach_east(session: &mut Session) -> Value {
    let reach = session.reach_of("b-inf-1").expect("a reach");
    let east: Map<String, Value> = reach
        .into_iter()
        .filter(|(hex, _)| hex.as_str() >= "06")
        .collect();
    Value::Object(east)
}

/// Without a bridge the river costs 3 more MP; over the bridge built at 0502/0602 it costs
/// nothing, so 0602 costs 1 and three more hexes come within 4 MP; blown, the costs are the
/// river's again.
#[test]
fn a_bridge_built_and_blown_in_play_changes_the_costs_of_the_crossing() {
    let mut session = on_the_bank(&[PathBuf::from(BRIDGES)]);
    let unbridged = json!({
        "0601": 3.0, "0602": 2.0, "0603": 1.0, "0604": 2.0, "0701": 3.0, "0702": 2.0, "0703": 2.0, "0704": 3.0,
        "0802": 4.0, "0803": 3.0, "0804": 3.0, "0805": 4.0, "0904": 4.0
    });
    assert_eq!(reach_east(&mut session), unbridged);
    let events = session
        .game
        .submit(Some("blue"), &order("bridge", "0602"))
        .expect("a bridge is built");
    assert_eq!(
        serde_json::to_value(&events).unwrap(),
        json!([{"event": "HexsideChanged", "hexside": ["0502", "0602"], "add": ["bridge"]}])
    );
    assert_eq!(
        reach_east(&mut session),
        json!({
            "0601": 2.0, "0602": 1.0, "0603": 1.0, "0604": 2.0, "0701": 2.0, "0702": 2.0, "0703": 2.0,
            "0704": 3.0, "0801": 4.0, "0802": 4.0, "0803": 3.0, "0804": 3.0, "0805": 4.0, "0904": 4.0
        })
    );
    assert_eq!(
        serde_json::to_value(&session.game.state().map_changes).unwrap(),
        json!({"hexsides": {"0502/0602": {"add": ["bridge"]}}})
    );
    session
        .game
        .submit(Some("blue"), &order("blow", "0602"))
        .expect("the bridge is blown");
    assert_eq!(reach_east(&mut session), unbridged);
    assert_eq!(
        serde_json::to_value(&session.game.state().map_changes).unwrap(),
        json!({"hexsides": {"0502/0602": {"remove": ["bridge"]}}})
    );
}

/// The variant's river blocks zones of control except over a bridge: the table's ZOC entries
/// follow the changed map as its costs do. r-inf-1 across the river at 0602 does not stop
/// b-inf-1 going along the west bank (0501 to 0502 to 0503); once b-inf-2 builds a bridge at
/// 0502/0602, its ZOC reaches 0502 and b-inf-1 stops there.
#[test]
fn a_bridge_carries_the_zone_of_control_across_the_river() {
    let mut session = Session::start_with_mods(
        Path::new("scenarios/demo"),
        Some(1),
        &[PathBuf::from(BRIDGES)],
    )
    .expect("starts");
    let setup = format!(
        "{}\n[[unit]]\nid = \"b-inf-2\"\nside = \"blue\"\ntype = \"infantry\"\nsize = \"XX\"\nma = 4\nstrength = 3\nat = \"0502\"\n",
        BANK.replace("at = \"0502\"", "at = \"0501\"")
            .replace("at = \"1210\"", "at = \"0602\"")
    );
    session
        .setup_text(&SourceText::new("zoc.toml", &setup))
        .expect("the setup fits");
    let reach =
        |session: &mut Session| Value::Object(session.reach_of("b-inf-1").expect("a reach"));
    assert_eq!(
        reach(&mut session),
        json!({
            "0301": 4.0, "0302": 4.0, "0303": 4.0, "0304": 4.0, "0401": 2.0, "0402": 2.0,
            "0403": 3.0, "0404": 3.0, "0405": 4.0, "0502": 1.0, "0503": 2.0, "0504": 3.0,
            "0505": 4.0, "0601": 4.0, "0603": 2.0, "0604": 3.0, "0703": 4.0, "0704": 4.0
        })
    );
    let mut args = Map::new();
    args.insert("unit".into(), json!("b-inf-2"));
    args.insert("across".into(), json!("0602"));
    session
        .game
        .submit(
            Some("blue"),
            &Command::Custom {
                name: "bridge".into(),
                args,
            },
        )
        .expect("a bridge is built");
    assert_eq!(
        reach(&mut session),
        json!({
            "0301": 4.0, "0302": 4.0, "0401": 2.0, "0402": 2.0, "0403": 4.0, "0502": 1.0,
            "0601": 4.0
        })
    );
}

/// The picture's legend lists the features the map shows: a bridge once built, none once
/// blown (its name stays known to the map).
#[test]
fn the_legend_follows_the_bridge() {
    let mut session = on_the_bank(&[PathBuf::from(BRIDGES)]);
    let legend_has_bridge = |s: &mut Session| {
        hexwar::render::render(s, None)
            .expect("a picture")
            .contains(">bridge<")
    };
    assert!(!legend_has_bridge(&mut session));
    session
        .game
        .submit(Some("blue"), &order("bridge", "0602"))
        .expect("a bridge is built");
    assert!(legend_has_bridge(&mut session));
    session
        .game
        .submit(Some("blue"), &order("blow", "0602"))
        .expect("the bridge is blown");
    assert!(!legend_has_bridge(&mut session));
}

/// `hex.map.hexside` answers from the map in force: a second bridge at the same place is
/// refused by the rules, which read the first one there; a bridge where there is no river too.
#[test]
fn the_rules_read_the_changed_map() {
    let mut session = on_the_bank(&[PathBuf::from(BRIDGES)]);
    session
        .game
        .submit(Some("blue"), &order("bridge", "0602"))
        .expect("a bridge is built");
    for (name, across, reason) in [
        ("bridge", "0602", "there is a bridge between 0502 and 0602"),
        ("blow", "0603", "no river between 0502 and 0603"),
    ] {
        match session.game.submit(Some("blue"), &order(name, across)) {
            Err(GameError::Refused(r)) => {
                assert_eq!((r.rule.as_str(), r.reason.as_str()), ("BRIDGE-1", reason))
            }
            other => panic!("{name} {across}: expected a refusal, got {other:?}"),
        }
    }
}

/// A saved game carries the bridge: resumed, the reach crosses it, the picture draws it, and
/// `play` on the save meets the rules' refusal of a second bridge.
#[test]
fn a_save_carries_the_changed_map_to_the_resumed_game_and_its_picture() {
    let dir = tempfile::tempdir().unwrap();
    let setup = dir.path().join("bank.toml");
    std::fs::write(&setup, BANK).unwrap();
    let orders = dir.path().join("orders.toml");
    std::fs::write(
        &orders,
        "[[order]]\nside = \"blue\"\ncommand = \"bridge\"\nunit = \"b-inf-1\"\nacross = \"0602\"\n",
    )
    .unwrap();
    let save = dir.path().join("bridged.json");
    let path = |p: &Path| p.to_str().unwrap().to_string();
    let out = hexwar(&[
        "play",
        "scenarios/demo",
        "--mod",
        BRIDGES,
        "--setup",
        &path(&setup),
        "--orders",
        &path(&orders),
        "--save",
        &path(&save),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let saved: Value = serde_json::from_str(&std::fs::read_to_string(&save).unwrap()).unwrap();
    assert_eq!(
        saved["state"]["map_changes"],
        json!({"hexsides": {"0502/0602": {"add": ["bridge"]}}})
    );
    // (status says what play changed on the map, in text and JSON)
    let out = hexwar(&["status", &path(&save)]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("map changed in play:\n  hexside 0502/0602: +bridge\n"),
        "{}",
        stdout(&out)
    );
    let out = hexwar(&["status", &path(&save), "--json"]);
    let status: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(
        status["map_changes"],
        json!({"hexsides": {"0502/0602": {"add": ["bridge"]}}})
    );
    let out = hexwar(&["reach", &path(&save), "b-inf-1", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let reach: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(reach["hexes"]["0602"], json!(1));
    let picture = |from: &str| -> String {
        let svg = dir.path().join("map.svg");
        let mut args = vec!["render", from, "-o", svg.to_str().unwrap()];
        if !from.ends_with(".json") {
            args.extend(["--mod", BRIDGES]);
        }
        let out = hexwar(&args);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        std::fs::read_to_string(&svg).unwrap()
    };
    let before = picture("scenarios/demo");
    let after = picture(&path(&save));
    assert!(
        !before.contains(">bridge<"),
        "a bridge before any was built"
    );
    assert!(
        after.contains(">bridge<"),
        "no bridge in the legend: {after}"
    );
    let out = hexwar(&["play", &path(&save), "--orders", &path(&orders)]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("BRIDGE-1: there is a bridge between 0502 and 0602"),
        "{}",
        stdout(&out)
    );
}

/// A mod whose command returns the given events (Lua source of the list).
fn mod_returning(dir: &Path, events: &str) -> PathBuf {
    let file = dir.join("change.lua");
    std::fs::write(
        &file,
        format!(
            "hex.commands.define(\"change\", {{ resolve = function(cmd, side) return {events} end }})\n"
        ),
    )
    .unwrap();
    file
}

/// A change the map cannot take fails the command, naming the event and what is wrong, and the
/// state (its map changes included) stays as it was, even after an earlier change of the same
/// list was applied.
#[test]
fn a_bad_map_change_is_named_and_changes_nothing() {
    let cases = [
        (
            r#"{ { event = "HexsideChanged", hexside = { "0502", "0602" }, add = { "brige" } } }"#,
            "event #1 (HexsideChanged): unknown hexside feature 'brige': did you mean 'bridge'? (the map and the vocabulary have: river, bridge); one the map lacks is named in the movement declaration's vocabulary.hexsides",
        ),
        (
            r#"{ { event = "HexsideChanged", hexside = { "0502", "0805" }, add = { "bridge" } } }"#,
            "event #1 (HexsideChanged): hexside: 0502 and 0805 are not adjacent",
        ),
        (
            r#"{ { event = "HexChanged", hex = "1311", terrain = "marsh" } }"#,
            "event #1 (HexChanged): hex '1311' is not a hex of the map (this 12×10 map's labels are 4 digits, column then row: 0101 to 1210)",
        ),
        (
            r#"{ { event = "HexChanged", hex = "0101", terrain = "swamp" } }"#,
            "event #1 (HexChanged): unknown terrain 'swamp' (the map and the vocabulary have: clear, forest, hills, lake, marsh); one the map lacks is named in the movement declaration's vocabulary.terrain",
        ),
        (
            r#"{ { event = "HexChanged", hex = "0101", remove = { "twon" } } }"#,
            "event #1 (HexChanged): remove: unknown hex feature 'twon': did you mean 'town'? (the map has: city, town)",
        ),
        (
            r#"{ { event = "HexChanged", hex = "0101" } }"#,
            "event #1 (HexChanged): changes nothing: give terrain, add or remove",
        ),
        (
            r#"{ { event = "HexChanged", hex = "0101", add = { "twon" } } }"#,
            "event #1 (HexChanged): add: hex feature 'twon' is one or two letters off 'town', which the map has: a misspelling? (a new feature's name is one no hex has yet; the map has: city, town)",
        ),
        (
            r#"{ { event = "HexsideChanged", hexside = { "0502", "0602" }, add = { "bridge" }, remove = { "bridge" } } }"#,
            "event #1 (HexsideChanged): 'bridge' is both added and removed",
        ),
    ];
    let dir = tempfile::tempdir().unwrap();
    for (events, expected) in cases {
        let changer = mod_returning(dir.path(), events);
        let mut session = on_the_bank(&[PathBuf::from(BRIDGES), changer]);
        let before = session.to_save().to_json();
        let change = Command::Custom {
            name: "change".into(),
            args: Map::new(),
        };
        match session.game.submit(Some("blue"), &change) {
            Err(GameError::Rules(e)) => assert!(
                e.message.ends_with(expected),
                "{events}:\n{}\nexpected it to end with\n{expected}",
                e.message
            ),
            other => panic!("{events}: expected a rules error, got {other:?}"),
        }
        assert_eq!(session.to_save().to_json(), before, "{events}");
    }
    // (a good change, then an event that cannot be applied: the command is rolled back whole)
    let changer = mod_returning(
        dir.path(),
        r#"{ { event = "HexsideChanged", hexside = { "0502", "0602" }, add = { "bridge" } },
             { event = "UnitRemoved", unit = "b-inf-9", reason = "gone" } }"#,
    );
    let mut session = on_the_bank(&[PathBuf::from(BRIDGES), changer]);
    let before = session.to_save().to_json();
    let change = Command::Custom {
        name: "change".into(),
        args: Map::new(),
    };
    assert!(session.game.submit(Some("blue"), &change).is_err());
    assert_eq!(session.to_save().to_json(), before);
    assert!(session.game.state().map_changes.is_empty());
}

/// A hand-edited save whose map changes leave the map is refused when it is resumed, naming
/// the place.
#[test]
fn a_save_whose_map_changes_leave_the_map_is_refused() {
    let mut session = on_the_bank(&[PathBuf::from(BRIDGES)]);
    session
        .game
        .submit(Some("blue"), &order("bridge", "0602"))
        .expect("a bridge is built");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("edited.json");
    let mut save = session.to_save();
    save.state.map_changes.hexsides =
        serde_json::from_value(json!({"0502/1602": {"add": ["bridge"]}})).unwrap();
    // (sealed again, as a hand edit that recomputes the checksum would be)
    let save = save.with_sides_done(Vec::new());
    std::fs::write(&file, save.to_json()).unwrap();
    let message = match Session::resume(&file) {
        Err(e) => e.to_string(),
        Ok(_) => panic!("resumed"),
    };
    assert!(
        message.ends_with("map change at '1602': not a hex of the map (this 12×10 map's labels are 4 digits, column then row: 0101 to 1210)"),
        "{message}"
    );
    // (a name the rules do not know is named too: it failed at the first call into the rules,
    // blaming whichever script that was)
    let mut save = session.to_save();
    save.state.map_changes =
        serde_json::from_value(json!({"hexes": {"0304": {"terrain": "swamp"}}})).unwrap();
    std::fs::write(&file, save.with_sides_done(Vec::new()).to_json()).unwrap();
    let message = match Session::resume(&file) {
        Err(e) => e.to_string(),
        Ok(_) => panic!("resumed"),
    };
    assert!(
        message.ends_with("map_changes.hexes.0304: unknown terrain 'swamp' (the map and the vocabulary have: clear, forest, hills, lake, marsh); one the map lacks is named in the movement declaration's vocabulary.terrain"),
        "{message}"
    );
    let out = hexwar(&["check", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    assert!(
        stderr(&out).contains("unknown terrain 'swamp'"),
        "{}",
        stderr(&out)
    );
}
