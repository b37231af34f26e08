//! Same scenario + seed + orders gives byte-identical logs and saves; another seed gives another
//! game; a save taken mid-game continues exactly like the uninterrupted run.

mod common;

use common::{hexwar, stderr};

fn run_log(args: &[&str], log: &std::path::Path) -> Vec<u8> {
    let mut all: Vec<&str> = args.to_vec();
    all.extend(["--log", log.to_str().unwrap()]);
    let out = hexwar(&all);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    std::fs::read(log).unwrap()
}

#[test]
fn same_seed_gives_byte_identical_logs_and_saves() {
    let dir = tempfile::tempdir().unwrap();
    let (s1, s2) = (dir.path().join("1.json"), dir.path().join("2.json"));
    let a = run_log(
        &[
            "run",
            "scenarios/demo",
            "--seed",
            "7",
            "--save",
            s1.to_str().unwrap(),
        ],
        &dir.path().join("a.jsonl"),
    );
    let b = run_log(
        &[
            "run",
            "scenarios/demo",
            "--seed",
            "7",
            "--save",
            s2.to_str().unwrap(),
        ],
        &dir.path().join("b.jsonl"),
    );
    assert_eq!(a, b);
    assert!(a.len() > 1000, "the game log is suspiciously short");
    assert_eq!(std::fs::read(&s1).unwrap(), std::fs::read(&s2).unwrap());
}

#[test]
fn another_seed_gives_another_game() {
    let dir = tempfile::tempdir().unwrap();
    let a = run_log(
        &["run", "scenarios/demo", "--seed", "7"],
        &dir.path().join("a.jsonl"),
    );
    let c = run_log(
        &["run", "scenarios/demo", "--seed", "8"],
        &dir.path().join("c.jsonl"),
    );
    assert_ne!(a, c);
}

#[test]
fn save_mid_game_then_continue_gives_the_uninterrupted_log() {
    let dir = tempfile::tempdir().unwrap();
    let full = run_log(
        &["run", "scenarios/demo", "--seed", "7"],
        &dir.path().join("full.jsonl"),
    );
    let save = dir.path().join("mid.json");
    let first = run_log(
        &[
            "run",
            "scenarios/demo",
            "--seed",
            "7",
            "--turns",
            "3",
            "--save",
            save.to_str().unwrap(),
        ],
        &dir.path().join("first.jsonl"),
    );
    let second = run_log(
        &["run", save.to_str().unwrap()],
        &dir.path().join("second.jsonl"),
    );
    assert!(!first.is_empty() && !second.is_empty());
    let mut joined = first.clone();
    joined.extend(second);
    assert_eq!(
        String::from_utf8(joined).unwrap(),
        String::from_utf8(full).unwrap()
    );
    // The first part stopped as turn 4 began, before any command in it.
    let last_line = String::from_utf8(first)
        .unwrap()
        .lines()
        .last()
        .unwrap()
        .to_string();
    assert_eq!(
        last_line,
        r#"{"event":"PhaseStarted","turn":4,"step":0,"side":"blue","phase":"movement"}"#
    );
}

/// DESIGN.md principle 9: a game is `Send`. A session started on one thread and handed to
/// another (an embedder's worker, a Bevy resource) plays there exactly the game it plays in
/// place: the same log, event for event, and the same final state.
#[test]
fn a_game_handed_to_another_thread_plays_the_same_game() {
    use hexwar::bot::RunLimit;
    use hexwar::engine::Event;
    use hexwar::Session;

    fn play_out(mut session: Session) -> (Vec<Event>, String) {
        session.play_bots(RunLimit::End).expect("the demo plays");
        (session.game.log().to_vec(), session.game.state().hash())
    }

    let start = || Session::start(std::path::Path::new("scenarios/demo"), Some(5)).expect("demo");
    let here = play_out(start());
    let handed = start();
    let there = std::thread::spawn(move || play_out(handed))
        .join()
        .expect("the worker thread plays to the end");
    assert!(
        here.0.len() > 100,
        "a whole demo game logs more than 100 events"
    );
    assert!(matches!(here.0.last(), Some(Event::GameEnded { .. })));
    assert_eq!(here, there);
}

/// `Session::play_bots` keeps the bots' dice in the session: a save taken after bot play and
/// resumed ends exactly as the uninterrupted game (the same final state).
#[test]
fn a_save_after_library_bot_play_continues_the_same_game() {
    use hexwar::bot::RunLimit;
    use hexwar::Session;

    let start = || Session::start(std::path::Path::new("scenarios/demo"), Some(9)).expect("demo");
    let mut whole = start();
    whole.play_bots(RunLimit::End).expect("plays");

    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("mid.json");
    let mut first = start();
    first.play_bots(RunLimit::BeforeTurn(4)).expect("plays");
    first.to_save().write(&save).expect("saved");
    let mut rest = Session::resume(&save).expect("resumes");
    rest.play_bots(RunLimit::End).expect("plays on");
    assert!(rest.game.is_over());
    assert_eq!(rest.game.state().hash(), whole.game.state().hash());
    assert_eq!(
        rest.game.log(),
        &whole.game.log()[whole.game.log().len() - rest.game.log().len()..]
    );
}

/// `table.sort` with many equal elements (a lopsided partition, where Lua 5.4 would take its
/// pivot from the clock): the same order at every call and in every process, so the same log.
#[test]
fn table_sort_gives_equal_elements_one_order() {
    use hexwar::rules::LuaRules;
    use hexwar::Session;

    let session = Session::start(std::path::Path::new("scenarios/demo"), Some(1)).unwrap();
    let mut rules = LuaRules::load(&session.scenario).unwrap();
    let code = "local out = {} \
        for round = 1, 5 do \
          local a = {} \
          for i = 1, 2000 do a[i] = { k = 10, id = i } end \
          a[1].k = 0; a[1000].k = 1; a[2000].k = 2 \
          table.sort(a, function(x, y) return x.k < y.k end) \
          local ids = {} \
          for i = 4, 11 do ids[#ids + 1] = a[i].id end \
          out[round] = table.concat(ids, ',') \
          for _ = 1, 20000 do local _ = {} end \
        end \
        return out";
    let orders = rules.eval(session.game.state(), code).unwrap();
    let first = orders[0].as_str().unwrap().to_string();
    assert_eq!(orders, serde_json::Value::from(vec![first.clone(); 5]));
    assert_eq!(first, "1334,1335,1333,1331,1332,1330,1336,1338");
}

/// `Session::play_bots_observed` sees every command the bots give and keeps their dice as
/// `play_bots` does: the same game, and a save after it continues it.
#[test]
fn observed_library_bot_play_is_the_same_game_and_sees_every_command() {
    use hexwar::bot::{PlayOptions, RunLimit};
    use hexwar::Session;

    let start = || Session::start(std::path::Path::new("scenarios/demo"), Some(9)).expect("demo");
    let mut plain = start();
    plain.play_bots(RunLimit::BeforeTurn(4)).expect("plays");
    let mut watched = start();
    let mut seen = Vec::new();
    let report = watched
        .play_bots_observed(
            RunLimit::BeforeTurn(4),
            PlayOptions::default(),
            &mut |_, played| {
                seen.push((played.side.to_string(), played.command.name().to_string()));
            },
        )
        .expect("plays");
    assert_eq!(seen.len() as u64, report.commands);
    assert!(seen
        .iter()
        .any(|(side, name)| side == "red" && name == "move"));
    assert_eq!(watched.to_save().to_json(), plain.to_save().to_json());
    // Stopping for a side: blue moves first, so the run stops before any command.
    let mut stopped = start();
    let report = stopped
        .play_bots_observed(
            RunLimit::End,
            PlayOptions {
                stop_for_side: Some("blue"),
                ..PlayOptions::default()
            },
            &mut |_, _| {},
        )
        .expect("plays");
    assert_eq!(report.waiting_for.as_deref(), Some("blue"));
    assert_eq!(report.commands, 0, "blue moves first");
}
