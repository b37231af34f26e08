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
