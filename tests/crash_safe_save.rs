//! Crash-safe saves: a process killed while it is saving leaves the previous save intact.
//! The test re-runs its own binary as a child that saves in a loop, kills it at random moments
//! many times, and checks that the save file always reads back as one of the two saved states.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use hexwar::engine::{Dice, GameState, Save};

const CHILD_ENV: &str = "HEXWAR_SAVE_CHILD";

fn state(turn: u32, padding: usize) -> GameState {
    let mut vars = BTreeMap::new();
    // A few hundred KiB, so that a write takes long enough to be interrupted.
    vars.insert(
        "padding".into(),
        serde_json::Value::String("x".repeat(padding)).into(),
    );
    GameState {
        scenario: "t".into(),
        turn,
        step: 0,
        units: BTreeMap::new(),
        gone: BTreeMap::new(),
        control: BTreeMap::new(),
        dice: Dice::new(1),
        vars,
        outcome: None,
        map_changes: Default::default(),
        revision: hexwar::engine::Revision::default(),
    }
}

/// The child: saves two alternating states to the file forever (until killed).
#[test]
fn save_loop_child() {
    let Ok(path) = std::env::var(CHILD_ENV) else {
        return;
    };
    let saves = [
        Save::new("a".into(), 1, Dice::new(1), state(1, 300_000)),
        Save::new("a".into(), 1, Dice::new(1), state(2, 400_000)),
    ];
    for i in 0.. {
        saves[i % 2].write(Path::new(&path)).unwrap();
    }
}

#[test]
fn a_process_killed_while_saving_leaves_the_previous_save_intact() {
    if std::env::var(CHILD_ENV).is_ok() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("game.json");
    let exe = std::env::current_exe().unwrap();
    let mut trials = 0;
    let mut killed_with_a_save_on_disk = 0;
    for k in 0..40u64 {
        let mut child = Command::new(&exe)
            .args([
                "--exact",
                "save_loop_child",
                "--nocapture",
                "--test-threads",
                "1",
            ])
            .env(CHILD_ENV, &path)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // Wait until the child has saved once (it may start slowly on a loaded machine), then
        // kill it at a different moment each time: 0 to 29 ms later, in the middle of saving.
        let started = std::time::Instant::now();
        while !path.exists() && started.elapsed() < Duration::from_secs(20) {
            std::thread::sleep(Duration::from_millis(2));
        }
        std::thread::sleep(Duration::from_millis((k * 7) % 30));
        child.kill().unwrap();
        child.wait().unwrap();
        trials += 1;
        if path.exists() {
            killed_with_a_save_on_disk += 1;
            let save =
                Save::read(&path).unwrap_or_else(|e| panic!("trial {k}: the save is damaged: {e}"));
            assert!(
                matches!(save.state.turn, 1 | 2),
                "trial {k}: unexpected state"
            );
        }
    }
    assert_eq!(trials, 40);
    assert!(
        killed_with_a_save_on_disk >= 30,
        "only {killed_with_a_save_on_disk} trials had written a save"
    );
}

/// The atomic rename puts a new file where the target was: a symbolic link is followed (the
/// file it names gets the save, the link stays a link), and a target that is no regular file
/// (here a directory; a pipe or a device likewise) is refused instead of replaced.
#[test]
fn a_save_follows_a_symlink_and_refuses_a_target_that_is_not_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let save = Save::new("a".into(), 1, Dice::new(1), state(1, 10));
    let real = dir.path().join("real.json");
    std::fs::write(&real, "old").unwrap();
    #[cfg(unix)]
    {
        let link = dir.path().join("link.json");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        save.write(&link).unwrap();
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(Save::read(&real).unwrap().state.turn, 1);
    }
    let not_a_file = dir.path().join("a-directory");
    std::fs::create_dir(&not_a_file).unwrap();
    let err = save.write(&not_a_file).unwrap_err().to_string();
    assert_eq!(
        err,
        format!(
            "{}: cannot write save: not a regular file: a save is not written over it",
            not_a_file.display()
        )
    );
    assert!(not_a_file.is_dir());
}

/// Every double reads back exactly: the checksum is taken over the written text, so a float that
/// came back one bit off made a just-written save "corrupt" (1/11 did, about one double in ten).
#[test]
fn a_save_holding_any_float_reads_back_with_its_checksum() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("floats.json");
    let mut st = state(1, 0);
    for (k, x) in [
        ("eleventh", 1.0 / 11.0),
        ("ma", 14.056937896133427),
        ("tiny", 4.22039319974257e-300),
    ] {
        st.vars.insert(k.into(), serde_json::Value::from(x).into());
    }
    let save = Save::new("a".into(), 1, Dice::new(1), st.clone());
    save.write(&path).unwrap();
    let back = Save::read(&path).unwrap();
    assert_eq!(back.state, st);
}

/// A variable as deep as a script may make one (tables nested 100 levels, the host's bound)
/// reads back from a save: at 126 levels, a save was written that the reader then refused.
#[test]
fn a_save_holding_the_deepest_script_value_reads_back() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("deep.json");
    let mut deep = serde_json::json!(1);
    for _ in 0..100 {
        deep = serde_json::json!([deep]);
    }
    let mut st = state(1, 0);
    st.vars.insert("deep".into(), deep.into());
    Save::new("a".into(), 1, Dice::new(1), st.clone())
        .write(&path)
        .unwrap();
    assert_eq!(Save::read(&path).unwrap().state, st);
}

/// The temporary file a save is written to has a fresh name: a file of the user's beside the
/// save, named as the temporary once was (`g.json.tmp`, removed as a leftover), is left alone,
/// and no temporary remains. A save the reader would refuse (nested past what JSON readers
/// follow) is not written at all.
#[test]
fn a_file_named_like_a_temporary_is_left_alone_and_an_unreadable_save_is_not_written() {
    let dir = tempfile::tempdir().unwrap();
    let precious = dir.path().join("g.json.tmp");
    std::fs::write(&precious, "keep me").unwrap();
    let path = dir.path().join("g.json");
    let save = Save::new("a".into(), 1, Dice::new(1), state(1, 0));
    save.write(&path).unwrap();
    assert_eq!(std::fs::read_to_string(&precious).unwrap(), "keep me");
    assert_eq!(Save::read(&path).unwrap().state, state(1, 0));
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["g.json", "g.json.tmp"]);

    let mut deep = serde_json::json!(1);
    for _ in 0..200 {
        deep = serde_json::json!([deep]);
    }
    let mut st = state(2, 0);
    st.vars.insert("deep".into(), deep.into());
    let err = Save::new("a".into(), 1, Dice::new(1), st)
        .write(&path)
        .unwrap_err()
        .to_string();
    assert!(err.contains("the save would not read back"), "{err}");
    assert_eq!(Save::read(&path).unwrap().state, state(1, 0));

    // A number that is not finite (a Rust ruleset's strength NaN) is written as null, which
    // the reader refuses: the save is not written (it was, and then could not be read).
    let mut st = state(3, 0);
    let mut unit: hexwar::engine::Unit =
        serde_json::from_value(serde_json::json!({"id": "u", "side": "a", "type": "inf"})).unwrap();
    unit.strength = f64::NAN;
    st.units.insert("u".into(), unit);
    let err = Save::new("a".into(), 1, Dice::new(1), st)
        .write(&path)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("the save would not read back") && err.contains("expected a number"),
        "{err}"
    );
    assert_eq!(Save::read(&path).unwrap().state, state(1, 0));
}

/// `run`'s other outputs are written like saves, each tried even when another failed: a log
/// and a replay the disk has no room for (`/dev/full`) do not cost the save, nor the summary
/// (it was not printed).
#[test]
fn a_log_that_cannot_be_written_still_saves() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("game.json");
    let out = Command::new(env!("CARGO_BIN_EXE_hexwar"))
        .args(["run", "scenarios/demo", "--seed", "3", "--turns", "1"])
        .args(["--log", "/dev/full", "--replay", "/dev/full", "--save"])
        .arg(&save)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        stderr,
        "error: /dev/full: cannot write log: No space left on device (os error 28)\n\
         error: /dev/full: cannot write replay: No space left on device (os error 28)\n"
    );
    let saved = Save::read(&save).unwrap();
    assert_eq!(saved.state.turn, 2);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.starts_with(
            "scenario: Demo: the river valley (demo)\nseed: 3\nstopped at the start of turn 2 of 8"
        ),
        "{stdout}"
    );
}

/// A batch whose `--per-game` file cannot be written still prints its statistics (they were
/// lost with every game played), then says so: exit 2.
#[test]
fn a_batch_whose_records_cannot_be_written_still_prints_its_statistics() {
    let out = Command::new(env!("CARGO_BIN_EXE_hexwar"))
        .args([
            "run",
            "scenarios/demo",
            "--games",
            "3",
            "--jobs",
            "1",
            "--quiet",
        ])
        .args(["--per-game", "/dev/full"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: /dev/full: cannot write: No space left on device (os error 28)\n"
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.starts_with("scenario: demo"), "{stdout}");
}

/// A save written under another name than `.json` (`--save game.save`) is read as a save by
/// every command (it was read as a scenario: `game.save:1: TOML: invalid key-value pair`).
#[test]
fn a_save_by_another_name_is_read_as_a_save() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("game.save");
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_hexwar"))
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .unwrap()
    };
    let out = run(&[
        "run",
        "scenarios/demo",
        "--seed",
        "3",
        "--turns",
        "1",
        "--save",
        save.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0));
    let out = run(&["status", save.to_str().unwrap()]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.starts_with("Demo: the river valley (demo), turn 2 of 8"),
        "{stdout}"
    );
}
