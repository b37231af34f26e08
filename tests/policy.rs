//! `WithPolicy`: a house rule in Rust over a game's Lua rules, refusing commands before the rules
//! see them and leaving them out of the legal lists, while every other question goes to the
//! wrapped rules (a wrapper that forwards by hand lost Diplomacy's step labels and skipped
//! phases when it left a default method in place).

use std::path::Path;

use hexwar::bot::RunLimit;
use hexwar::engine::{Command, CommandPolicy, GameError, GameState, Refusal, WithPolicy};
use hexwar::scenario::load_scenario;
use hexwar::{Session, SessionError};

/// No unit may enter `hex`.
struct Minefield {
    hex: String,
}

impl CommandPolicy for Minefield {
    fn refusal(&self, _: &GameState, _: Option<&str>, command: &Command) -> Option<Refusal> {
        match command {
            Command::Move { unit, path } if path.contains(&self.hex) => Some(Refusal::new(
                "HOUSE-1",
                format!("{unit} may not enter the minefield at {}", self.hex),
            )),
            _ => None,
        }
    }
}

/// Refuses nothing: the wrapped game must play exactly as the bare one.
struct Nothing;

impl CommandPolicy for Nothing {
    fn refusal(&self, _: &GameState, _: Option<&str>, _: &Command) -> Option<Refusal> {
        None
    }
}

fn wrapped<P: CommandPolicy + 'static>(scenario: &str, seed: u64, policy: P) -> Session {
    let scenario = load_scenario(Path::new(scenario)).unwrap();
    Session::start_scenario_wrapped(scenario, Some(seed), |rules| {
        Box::new(WithPolicy::new(Box::new(rules), policy))
    })
    .unwrap()
}

#[test]
fn a_policy_refuses_its_commands_and_leaves_them_out_of_the_lists() {
    let mut bare = Session::start(Path::new("scenarios/demo"), Some(1)).unwrap();
    let side = bare.game.phasing_side().unwrap();
    let listed = bare.game.legal_commands(&side).unwrap();
    let Some(Command::Move { unit, path }) = listed
        .iter()
        .find(|c| matches!(c, Command::Move { .. }))
        .cloned()
    else {
        panic!("the demo lists no move")
    };
    let target = path.last().unwrap().clone();
    let mut s = wrapped(
        "scenarios/demo",
        1,
        Minefield {
            hex: target.clone(),
        },
    );
    let before = serde_json::to_string(s.game.state()).unwrap();
    let refused = s
        .game
        .submit(
            Some(&side),
            &Command::Move {
                unit: unit.clone(),
                path,
            },
        )
        .unwrap_err();
    assert_eq!(
        refused,
        GameError::Refused(Refusal::new(
            "HOUSE-1",
            format!("{unit} may not enter the minefield at {target}")
        ))
    );
    assert_eq!(serde_json::to_string(s.game.state()).unwrap(), before);
    let kept = s.game.legal_commands(&side).unwrap();
    let entering = |c: &Command| matches!(c, Command::Move { path, .. } if path.contains(&target));
    assert!(listed.iter().any(entering));
    assert!(!kept.iter().any(entering));
    assert_eq!(kept.len(), listed.iter().filter(|c| !entering(c)).count());
}

#[test]
fn a_game_under_a_policy_that_refuses_nothing_plays_as_the_bare_game() {
    let mut bare = Session::start(Path::new("scenarios/diplomacy"), Some(2)).unwrap();
    let mut under = wrapped("scenarios/diplomacy", 2, Nothing);
    assert_eq!(
        under.game.phase_label().unwrap(),
        bare.game.phase_label().unwrap()
    );
    bare.play_bots(RunLimit::BeforeTurn(3)).unwrap();
    under.play_bots(RunLimit::BeforeTurn(3)).unwrap();
    assert_eq!(under.game.state().hash(), bare.game.state().hash());
    assert_eq!(
        under.game.phase_label().unwrap(),
        bare.game.phase_label().unwrap()
    );
    // the sides come from the wrapped rules: a power the map lacks is refused
    let narnia = under
        .game
        .submit(Some("NARNIA"), &Command::EndPhase)
        .unwrap_err();
    assert!(matches!(narnia, GameError::Refused(_)), "{narnia:?}");
    // and so does the save's record of the rules files
    assert_eq!(under.to_save().rules, bare.to_save().rules);
}

/// Every question a `Ruleset` answers by a default method is the wrapped rules' answer under
/// `WithPolicy` (it lost `query_names`: a host listing the queries it may ask saw none).
#[test]
fn a_policy_forwards_every_question_with_a_default_answer() {
    for scenario in [
        "scenarios/demo",
        "scenarios/diplomacy",
        "scenarios/tactical",
    ] {
        let bare = Session::start(Path::new(scenario), Some(1)).unwrap();
        let under = wrapped(scenario, 1, Nothing);
        let (b, u) = (bare.game.rules(), under.game.rules());
        assert!(!b.query_names().is_empty(), "{scenario}");
        assert_eq!(u.query_names(), b.query_names(), "{scenario}");
        assert_eq!(u.command_names(), b.command_names(), "{scenario}");
        assert_eq!(u.sides(), b.sides(), "{scenario}");
        assert_eq!(
            u.vertex_facing_kinds(),
            b.vertex_facing_kinds(),
            "{scenario}"
        );
        assert_eq!(u.loaded_files(), b.loaded_files(), "{scenario}");
        assert_eq!(u.reads_setup(), b.reads_setup(), "{scenario}");
        for event in ["UnitMoved", "GameStarted", "Custom"] {
            assert_eq!(
                u.event_handlers(event),
                b.event_handlers(event),
                "{scenario}"
            );
        }
    }
}

/// The example of docs/embedding.md, as written there.
#[test]
fn the_embedding_guides_example_compiles_and_refuses() -> Result<(), Box<dyn std::error::Error>> {
    struct NoEntry(String);
    impl CommandPolicy for NoEntry {
        fn refusal(&self, _: &GameState, _: Option<&str>, c: &Command) -> Option<Refusal> {
            matches!(c, Command::Move { path, .. } if path.contains(&self.0))
                .then(|| Refusal::new("HOUSE-1", format!("no unit may enter {}", self.0)))
        }
    }
    let scenario = load_scenario(Path::new("scenarios/demo")).map_err(SessionError::from)?;
    let mut session = Session::start_scenario_wrapped(scenario, Some(7), |rules| {
        Box::new(WithPolicy::new(Box::new(rules), NoEntry("0604".into())))
    })?;
    let side = session.game.phasing_side().unwrap_or_default();
    let moves = session.game.legal_commands(&side)?;
    assert!(!moves
        .iter()
        .any(|c| matches!(c, Command::Move { path, .. } if path.contains(&"0604".to_string()))));
    Ok(())
}

/// A fork loads the rules again: a session whose rules the host wrapped refuses the plain
/// `fork` (whose game let through the move the original refuses), and `fork_wrapped` with the
/// same wrapper plays as the original does.
#[test]
fn a_wrapped_session_forks_only_with_its_wrapper() {
    let s = wrapped("scenarios/demo", 1, Minefield { hex: "0202".into() });
    let e = s.fork().unwrap_err();
    assert!(matches!(e, SessionError::HostChoice(_)), "{e:?}");
    assert_eq!(
        e.to_string(),
        "Session::fork: this session's rules were made by the host (a *_wrapped start or \
         resume, resume_save_adjusted, start_with_rules), and a fork would play under the plain \
         Lua rules: fork it with Session::fork_wrapped and the same wrapper"
    );
    let mut fork = s
        .fork_wrapped(|rules| {
            Box::new(WithPolicy::new(
                Box::new(rules),
                Minefield { hex: "0202".into() },
            ))
        })
        .unwrap();
    let side = fork.game.phasing_side().unwrap();
    let into_mines = Command::Move {
        unit: "b-inf-1".into(),
        path: vec!["0202".into()],
    };
    assert_eq!(
        fork.game.submit(Some(&side), &into_mines).unwrap_err(),
        GameError::Refused(Refusal::new(
            "HOUSE-1",
            "b-inf-1 may not enter the minefield at 0202"
        ))
    );
    // (the plain session forks as before)
    let plain = Session::start(Path::new("scenarios/demo"), Some(1)).unwrap();
    assert_eq!(
        serde_json::to_string(plain.fork().unwrap().game.state()).unwrap(),
        serde_json::to_string(plain.game.state()).unwrap()
    );
}
