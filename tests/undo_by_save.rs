//! Undo for an embedding host (docs/embedding.md, "Undo"): a `Save` taken before a command is
//! the whole game; resumed, it is the game as it stood, and the same command gives the same
//! events again.

use std::path::Path;

use hexwar::Session;

#[test]
fn a_save_taken_before_a_command_undoes_it() {
    let mut session = Session::start(Path::new("scenarios/demo"), Some(7)).expect("starts");
    let before = session.to_save();
    let before_json = before.to_json();
    let command = session
        .game
        .legal_commands("blue")
        .expect("legal")
        .into_iter()
        .next()
        .expect("blue has a command");
    let events = session.game.submit(Some("blue"), &command).expect("legal");
    assert_ne!(session.to_save().to_json(), before_json);

    let mut undone = Session::resume_save(before, Path::new("undo.json")).expect("resumes");
    assert_eq!(undone.to_save().to_json(), before_json);
    assert_eq!(
        undone.game.submit(Some("blue"), &command).expect("legal"),
        events
    );
    assert_eq!(undone.to_save().to_json(), session.to_save().to_json());
}
