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

/// Undo and look-ahead in memory: `Game::restore` puts back a copy of an earlier state without
/// loading the rules again, and `Session::fork` gives a spare game at the same position. Each
/// plays on exactly as the original (the Diplomacy host's caches of its position included).
#[test]
fn a_restored_state_and_a_fork_play_on_as_the_original() {
    use hexwar::bot::RunLimit;
    for scenario in ["scenarios/demo", "scenarios/diplomacy"] {
        let mut session = Session::start(Path::new(scenario), Some(7)).expect("starts");
        let mut spare = session.fork().expect("forks");
        let (state, dice) = (session.game.state().clone(), session.bot_dice);
        let logged = session.game.log().len();
        session.play_bots(RunLimit::BeforeTurn(3)).expect("plays");
        let played = session.game.state().hash();
        let events = session.game.log()[logged..].to_vec();
        assert_ne!(played, state.hash(), "{scenario}");

        spare.play_bots(RunLimit::BeforeTurn(3)).expect("plays");
        assert_eq!(spare.game.state().hash(), played, "{scenario}: the fork");
        assert_eq!(
            spare.game.log(),
            &events[..],
            "{scenario}: the fork's events"
        );

        session.game.restore(state.clone()).expect("restores");
        session.bot_dice = dice;
        assert_eq!(session.game.state().hash(), state.hash());
        let again = session.game.log().len();
        session.play_bots(RunLimit::BeforeTurn(3)).expect("plays");
        assert_eq!(session.game.state().hash(), played, "{scenario}: restored");
        assert_eq!(session.game.log()[again..], events[..], "{scenario}: again");
    }
}

/// A state of another scenario is refused, naming both, and the game keeps its own.
#[test]
fn a_state_of_another_scenario_is_not_restored() {
    let mut demo = Session::start(Path::new("scenarios/demo"), Some(7)).expect("starts");
    let other = Session::start(Path::new("scenarios/tactical"), Some(7)).expect("starts");
    let before = demo.game.state().hash();
    let e = demo
        .game
        .restore(other.game.state().clone())
        .expect_err("another scenario");
    assert_eq!(e.kind, hexwar::engine::RulesErrorKind::HostCall);
    assert_eq!(
        e.message,
        "restore: the state is of scenario 'tactical', this game of 'demo'"
    );
    assert_eq!(demo.game.state().hash(), before);
}

/// A state at a turn or step the game does not have (a host's own, turn 500) is refused as the
/// host's mistake; it was taken, and the next command failed in the rules, blamed on a script.
#[test]
fn a_state_at_a_turn_or_step_the_game_lacks_is_not_restored() {
    let mut demo = Session::start(Path::new("scenarios/demo"), Some(7)).expect("starts");
    let before = demo.game.state().hash();
    for (turn, step, why) in [
        (
            500,
            0,
            "restore: turn 500 is past the scenario's last turn (8)",
        ),
        (
            9,
            0,
            "restore: turn 9 is past the scenario's last turn (8), and the game is not over",
        ),
        (1, 40, "restore: turn 1 has no step 40 (its sequence has 4)"),
    ] {
        let mut state = demo.game.state().clone();
        state.turn = turn;
        state.step = step;
        let e = demo.game.restore(state).expect_err("a turn the game lacks");
        assert_eq!(e.kind, hexwar::engine::RulesErrorKind::HostCall);
        assert_eq!(e.message, why);
        assert_eq!(demo.game.state().hash(), before);
    }
    let mut last = demo.game.state().clone();
    last.turn = 8;
    demo.game
        .restore(last)
        .expect("the last turn is the game's");
}
